package partner

import (
	"strings"

	"github.com/locsvc/partner-go/internal/toolcalls"
)

// ParseProject splits a project name as the tools take it, "org/project"
// (the organization's slug and the project's), into its two slugs. A
// name that is empty, has no '/' or more than one, an empty part or white
// space is refused with an error matching ErrInvalidArgument: the calls
// that take a project refuse it the same way, before any request.
func ParseProject(name string) (org, project string, err error) {
	if err := toolcalls.CheckProject(name); err != nil {
		return "", "", err
	}
	org, project, _ = strings.Cut(name, "/")
	return org, project, nil
}
