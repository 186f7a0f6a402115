// Command partner works with the localization service's partner API from a
// terminal or a CI job:
//
//   - push sends a tree of locale files to a project, writing only what
//     differs (package locales), and can publish it;
//   - pull writes the project's texts, from the API or its CDN, into a tree
//     of locale files;
//   - status shows what waits to be published and the recent sync jobs;
//   - publish publishes it and waits until it is shipped;
//   - fake runs the SDK's fake of the service (package partnertest) as a
//     standalone server, for tests in any language;
//   - trigger sends one signed test webhook delivery of any event type;
//   - connect runs the consent flow and saves the grants' tokens to a
//     store.
//
// Settings come from PARTNER_* environment variables, flags override
// them. Run "partner help" for the commands, and see the README's "The
// partner command".
//
// Exit codes: 0 success; 1 failure; 2 usage (a wrong flag, argument or
// setting); 3 the grant needs reconnecting (run "partner connect"); 4 some
// items failed or are not confirmed.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
