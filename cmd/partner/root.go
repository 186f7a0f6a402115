package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/oauth2"
	"golang.org/x/term"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/auth"
)

// app is one run of the command: its environment, its input and output,
// and the flags every command shares. Each command's options hold it, as
// gh's hold their IOStreams and factory.
type app struct {
	getenv         func(string) string
	stdin          io.Reader
	stdout, stderr io.Writer
	// httpClient, if not nil, is the HTTP client the SDK uses (a test's
	// in-memory network); nil is the SDK's default.
	httpClient *http.Client
	// out and errOut print the human-readable text on stdout and stderr:
	// every string from outside goes through them (see printer).
	out, errOut *printer
	json        bool // --json
	// printedJSON is set once a JSON document was written on stdout: a
	// failure after it prints no second one.
	printedJSON bool
	store       string // --store, else PARTNER_STORE
}

// newApp returns an app reading settings with getenv.
func newApp(getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) *app {
	return &app{getenv: getenv, stdin: stdin, stdout: stdout, stderr: stderr, out: newPrinter(stdout), errOut: newPrinter(stderr)}
}

// run runs the command line args and returns the exit code.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	a := newApp(getenv, os.Stdin, stdout, stderr)
	root := a.rootCmd()
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	if err != nil {
		msg := err.Error()
		if !strings.HasPrefix(msg, "partner: ") {
			msg = "partner: " + msg
		}
		if (a.json || wantsJSON(args)) && !a.printedJSON {
			a.printJSON(errorJSON(err)) // nothing more to say if stdout is gone
		}
		a.errOut.println(msg)
		if hint := advice(err); hint != "" {
			a.errOut.printf("  %s\n", hint)
		}
		var ue *usageError
		if errors.As(err, &ue) {
			a.errOut.println("  run `partner help` for the commands and their flags")
		}
	}
	return exitCode(err)
}

func (a *app) rootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "partner",
		Short: "Work with the localization service's partner API",
		Long: `partner works with the localization service's partner API: it pushes locale files
to a project and pulls them back, shows what waits to be published and
publishes it, runs a fake of the service for tests in any
language, sends signed test webhook deliveries, and connects a user to get a
first token.

Settings come from the environment (flags override them): PARTNER_BASE_URL,
PARTNER_AUTH_URL, PARTNER_MCP_URL, PARTNER_CONTENT_MCP_URL, PARTNER_CLIENT_ID,
PARTNER_CLIENT_SECRET, PARTNER_GRANT_ID, PARTNER_REDIRECT_URL, PARTNER_PROJECT,
PARTNER_STORE, PARTNER_REFRESH_TOKEN, PARTNER_CDN_URL and PARTNER_WEBHOOK_SECRET.
"partner fake --print-env" prints them all for the fake.

Exit codes: 0 success; 1 failure; 2 usage; 3 the grant needs reconnecting;
4 some items failed.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageErrorf("unknown command %q", args[0])
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{err.Error()} })
	// cobra's own help command prints the root's help and succeeds for a
	// topic that is no command (its Find stops at the root, which takes
	// arguments to refuse them): this one says so, through errOut.
	root.SetHelpCommand(&cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		ValidArgsFunction: func(c *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			cmd, _, err := c.Root().Find(args)
			if err != nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var names []cobra.Completion
			for _, sub := range cmd.Commands() {
				if sub.IsAvailableCommand() && strings.HasPrefix(sub.Name(), toComplete) {
					names = append(names, cobra.CompletionWithDesc(sub.Name(), sub.Short))
				}
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			cmd, rest, err := c.Root().Find(args)
			if err != nil || len(rest) > 0 {
				return usageErrorf("unknown help topic %q", strings.Join(args, " "))
			}
			return cmd.Help()
		},
	})
	a.addVersion(root) // "partner version" and "partner --version": version.go
	root.PersistentFlags().BoolVar(&a.json, "json", false, "print only the result, as JSON (see the README for each command's schema)")
	root.PersistentFlags().StringVar(&a.store, "store", "", "the token store (default $PARTNER_STORE): "+storeSyntax)
	root.AddCommand(a.fakeCmd(), a.triggerCmd(), a.connectCmd(), a.statusCmd(), a.publishCmd(), a.pushCmd(), a.pullCmd(),
		a.initCmd(), a.languagesCmd(), a.projectsCmd())
	return root
}

// usageArgs wraps a cobra argument check so that its error exits with
// exitUsage.
func usageArgs(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := check(cmd, args); err != nil {
			return &usageError{err.Error()}
		}
		return nil
	}
}

// env returns the value of the environment variable name.
func (a *app) env(name string) string { return strings.TrimSpace(a.getenv(name)) }

// need returns the values of the named variables, or a usage error naming
// those that are not set.
func (a *app) need(names ...string) ([]string, error) {
	var vals, missing []string
	for _, n := range names {
		v := a.env(n)
		if v == "" {
			missing = append(missing, n)
		}
		vals = append(vals, v)
	}
	if len(missing) > 0 {
		return nil, usageErrorf("%s not set: export them (for the fake: see `partner help fake`)", strings.Join(missing, ", "))
	}
	return vals, nil
}

// storeSpec returns --store, else PARTNER_STORE.
func (a *app) storeSpec() string {
	if a.store != "" {
		return a.store
	}
	return a.env("PARTNER_STORE")
}

// client returns a Client for PARTNER_GRANT_ID with its token from the
// store, seeded from PARTNER_REFRESH_TOKEN when the store has none (the
// store wins); without a store it uses PARTNER_REFRESH_TOKEN for this run
// only, and warns.
func (a *app) client(ctx context.Context) (*partner.Client, func(), error) {
	v, err := a.need("PARTNER_BASE_URL", "PARTNER_AUTH_URL", "PARTNER_MCP_URL", "PARTNER_CLIENT_ID", "PARTNER_CLIENT_SECRET", "PARTNER_GRANT_ID")
	if err != nil {
		return nil, nil, err
	}
	cfg := partner.Config{
		BaseURL: v[0], AuthURL: v[1], MCPURL: v[2], ContentMCPURL: a.env("PARTNER_CONTENT_MCP_URL"),
		ClientID: v[3], ClientSecret: v[4], GrantID: v[5],
		UserAgent: "partner-cli", HTTPClient: a.httpClient,
	}
	refresh := a.env("PARTNER_REFRESH_TOKEN")
	closeStore := func() {}
	switch spec := a.storeSpec(); {
	case spec != "":
		store, closer, err := openStore(ctx, spec)
		if err != nil {
			return nil, nil, err
		}
		closeStore = closer
		cfg.Store = store
		if refresh != "" {
			if _, err := seed(ctx, store, cfg.GrantID, &oauth2.Token{RefreshToken: refresh}); err != nil {
				closer()
				return nil, nil, fmt.Errorf("seeding the store with PARTNER_REFRESH_TOKEN: %w", err)
			}
		} else if _, err := store.Load(ctx, cfg.GrantID); errors.Is(err, auth.ErrNoToken) {
			closer()
			return nil, nil, usageErrorf("the store has no token for grant %s: run `partner connect`, or set PARTNER_REFRESH_TOKEN once to seed it", cfg.GrantID)
		}
	case refresh != "":
		cfg.Token = &oauth2.Token{RefreshToken: refresh}
		a.errOut.println("partner: warning: PARTNER_REFRESH_TOKEN without PARTNER_STORE: the token is used for this run only, and a service that rotates refresh tokens will refuse it next time; set PARTNER_STORE to keep it")
	default:
		return nil, nil, usageErrorf("no token: set PARTNER_STORE to a store holding the grant's token (see `partner connect`), or PARTNER_REFRESH_TOKEN")
	}
	c, err := partner.NewClient(cfg)
	if err != nil {
		closeStore()
		return nil, nil, err
	}
	return c, func() { c.Close(); closeStore() }, nil
}

// project returns --project, else PARTNER_PROJECT, checked for the
// org/project form by the SDK's rule (partner.ParseProject).
func (a *app) project(flag string) (string, error) {
	p := flag
	if p == "" {
		p = a.env("PARTNER_PROJECT")
	}
	if p == "" {
		return "", usageErrorf("no project: give --project ORG/PROJECT or set PARTNER_PROJECT")
	}
	if _, _, err := partner.ParseProject(p); err != nil {
		return "", usageErrorf("project %q: want ORG/PROJECT, the slugs of the organization and the project", p)
	}
	return p, nil
}

// printResult prints a command's result: v as JSON with --json (see
// printJSON), else what human prints.
func (a *app) printResult(v any, human func()) error {
	if a.json {
		return a.printJSON(v)
	}
	human()
	return nil
}

// printJSON writes v as indented JSON on stdout, with the characters
// that drive a terminal or a CI log escaped (see jsonSafe).
func (a *app) printJSON(v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	a.printedJSON = true
	_, err = a.stdout.Write(append(jsonSafe(b), '\n'))
	return err
}

// stderrIsTerminal reports whether progress may be drawn on stderr.
func (a *app) stderrIsTerminal() bool {
	f, ok := a.stderr.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
