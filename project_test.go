package partner_test

import (
	"errors"
	"testing"

	partner "github.com/locsvc/partner-go"
)

func TestParseProject(t *testing.T) {
	org, project, err := partner.ParseProject("acme/web")
	if err != nil || org != "acme" || project != "web" {
		t.Errorf(`ParseProject("acme/web") = %q, %q, %v; want acme, web`, org, project, err)
	}
	for _, name := range []string{"", "acme", "acme/", "/web", "acme/web/x", "acme/ web", " acme/web"} {
		if _, _, err := partner.ParseProject(name); !errors.Is(err, partner.ErrInvalidArgument) {
			t.Errorf("ParseProject(%q): %v, want ErrInvalidArgument", name, err)
		}
	}
}
