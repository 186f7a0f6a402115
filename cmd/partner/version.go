package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// version is the release version, stamped by the release build
// (.goreleaser.yaml: -ldflags "-X main.version=v1.2.3"). It is the only
// package-level variable the command has, because -X can set nothing else;
// it is never written at run time. Other builds leave it empty and report
// the module version from the build info instead.
var version string

// unknown stands for what a build did not record: a build with
// -buildvcs=false, or one by "go install ...@vX", has no VCS revision.
const unknown = "unknown"

// buildVersion is what "partner version --json" prints.
type buildVersion struct {
	Version  string `json:"version"`  // the release's, else the module's ("(devel)" for a build without VCS data)
	Revision string `json:"revision"` // the VCS commit, or "unknown"
	Time     string `json:"time"`     // the commit's time (RFC 3339, UTC), or "unknown"
	Modified bool   `json:"modified"` // the work tree had uncommitted changes (false when unknown)
	Go       string `json:"go"`       // the Go version that built it
	Platform string `json:"platform"` // GOOS/GOARCH
}

// readVersion returns the version of a build stamped with stamped (empty
// when not) whose build info is bi (nil when the binary has none).
func readVersion(stamped string, bi *debug.BuildInfo) buildVersion {
	v := buildVersion{
		Version:  stamped,
		Revision: unknown,
		Time:     unknown,
		Go:       runtime.Version(),
		Platform: runtime.GOOS + "/" + runtime.GOARCH,
	}
	if bi == nil {
		if v.Version == "" {
			v.Version = unknown
		}
		return v
	}
	if v.Version == "" {
		v.Version = bi.Main.Version
	}
	if v.Version == "" {
		v.Version = unknown
	}
	if bi.GoVersion != "" {
		v.Go = bi.GoVersion
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = s.Value
		case "vcs.time":
			v.Time = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

// String returns the version on one line, for CI logs:
// "v1.2.3 (revision 0123abc..., 2026-01-02T03:04:05Z) go1.26.1 linux/amd64".
func (v buildVersion) String() string {
	vcs := []string{"revision " + v.Revision, v.Time}
	if v.Modified {
		vcs = append(vcs, "modified")
	}
	return fmt.Sprintf("%s (%s) %s %s", v.Version, strings.Join(vcs, ", "), v.Go, v.Platform)
}

// currentVersion returns this binary's version.
func currentVersion() buildVersion {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = nil
	}
	return readVersion(version, bi)
}

// addVersion adds "partner version" and "partner --version" to root; both
// print the same line.
func (a *app) addVersion(root *cobra.Command) {
	v := currentVersion()
	root.Version = v.String()
	root.SetVersionTemplate("{{.Name}} {{.Version}}\n")
	root.AddCommand(&cobra.Command{
		Use:   "version [--json]",
		Short: "Print the version, the VCS revision and the Go version of this build",
		Long: `version prints the release version (or, for a build from source, the module
version), the VCS revision and its time ("unknown" when the build did not
record them: a build with -buildvcs=false, or one by "go install ...@vX"), and
the Go version and platform. "partner --version" prints the same line.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			if a.json {
				return a.printJSON(v)
			}
			a.out.printf("partner %s\n", v.String())
			return nil
		},
	})
}
