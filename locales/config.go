package locales

import "github.com/locsvc/partner-go/translations"

// ConfigFile is the name of a tree's configuration file, at its root.
const ConfigFile = "partner.yaml"

// Config is partner.yaml: what a tree's push and pull need besides a
// token, meant to be committed. It holds no secret.
type Config struct {
	// Project is "org/project".
	Project string `yaml:"project"`
	// CDN is the base URL of the project's published files, as the
	// service gives it; a pull from it needs no grant.
	CDN string `yaml:"cdn,omitempty"`
	// SourceLanguage is the project's source language.
	SourceLanguage string `yaml:"sourceLanguage"`
	// FileStructure and KeyFormat are the project's, as last seen: the
	// shape of its CDN files.
	FileStructure translations.FileStructure `yaml:"fileStructure,omitempty"`
	KeyFormat     translations.KeyFormat     `yaml:"keyFormat,omitempty"`
	// Files are the tree's file groups, each with its format by name.
	Files []Group `yaml:"files"`
}

// ReadConfig reads the configuration file name, resolving each group's
// format by its name in formats (formats.ByName in package
// locales/formats). An unknown key, format or placeholder is an error
// naming its line.
func ReadConfig(name string, formats map[string]Format) (*Config, error) {
	panic("base31: not built yet")
}

// Marshal returns c as partner.yaml, each group's format named by its
// name in formats.
func (c *Config) Marshal(formats map[string]Format) ([]byte, error) {
	panic("base31: not built yet")
}

// Layout returns the layout of c's files.
func (c *Config) Layout() Layout {
	return Layout{Keys: c.KeyFormat, Groups: c.Files, SourceLanguage: c.SourceLanguage}
}
