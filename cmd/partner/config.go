package main

import (
	"cmp"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/spf13/cobra"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/formats"
)

// readConfig reads the partner.yaml at path, or locales.ConfigFile in
// the current folder when path is "". It returns nil and no error when
// path is "" and the current folder has none; a --config file that does
// not exist is a usage error.
func readConfig(path string) (*locales.Config, error) {
	explicit := path != ""
	if !explicit {
		path = locales.ConfigFile
	}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !explicit:
		return nil, nil
	case errors.Is(err, fs.ErrNotExist):
		return nil, usageErrorf("--config %s: no such file", path)
	case err != nil:
		return nil, err
	case fi.IsDir():
		return nil, usageErrorf("--config %s is a folder: give the partner.yaml file", path)
	}
	return locales.ReadConfig(path, formats.ByName())
}

// projectFlags are --project and --config of a command that needs a
// project and no locale tree.
type projectFlags struct{ project, config string }

func (f *projectFlags) add(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.project, "project", "", "the project, ORG/PROJECT (default: partner.yaml's, else $PARTNER_PROJECT)")
	cmd.Flags().StringVar(&f.config, "config", "", "the partner.yaml whose project to take (default: ./"+locales.ConfigFile+")")
	cmd.MarkFlagFilename("config", "yaml", "yml")
}

// resolve returns the project: --project, else the partner.yaml's
// (--config, else the current folder's), else PARTNER_PROJECT. A tree's
// committed file wins over the environment, so that a shell's
// PARTNER_PROJECT never sends a tree to another project than its own.
func (f *projectFlags) resolve(a *app) (string, error) {
	if f.project != "" {
		return a.project(f.project)
	}
	cfg, err := readConfig(f.config)
	if err != nil {
		return "", err
	}
	if cfg != nil && cfg.Project != "" {
		return a.project(cfg.Project)
	}
	return a.project("")
}

// fromConfig fills the flags' layout and project from the partner.yaml
// at f.config (else the current folder's): the tree's root is the file's
// folder unless --dir is given, and --project, --format and --keys
// override the file's. Without --dir and without a file it is a usage
// error.
func (f *layoutFlags) fromConfig(a *app) (locales.Layout, string, error) {
	var l locales.Layout
	cfg, err := readConfig(f.config)
	if err != nil {
		return l, "", err
	}
	if cfg == nil {
		return l, "", usageErrorf("--dir is required: the folder of the locale files (or run where a %s is: `partner init` writes one)", locales.ConfigFile)
	}
	f.cfg = cfg
	if f.dir == "" {
		f.dir = filepath.Dir(cmp.Or(f.config, locales.ConfigFile))
	}
	l = cfg.Layout()
	l.Groups = slices.Clone(l.Groups)
	if f.files != "" {
		return l, "", usageErrorf("--layout does not apply to the file groups of %s: their paths say where the files are", locales.ConfigFile)
	}
	if f.format != "" {
		ff, err := f.namedFormat()
		if err != nil {
			return l, "", err
		}
		l.Format = ff
		for i := range l.Groups {
			l.Groups[i].Format = ff
		}
	}
	if f.keys != "" {
		k, err := f.keyFormat()
		if err != nil {
			return l, "", err
		}
		l.Keys = k
		for i := range l.Groups {
			l.Groups[i].Keys = k
		}
	}
	project := f.project
	if project == "" {
		project = cfg.Project
	}
	project, err = a.project(project)
	return l, project, err
}
