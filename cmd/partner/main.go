// Command partner works with the localization service's partner API from a
// terminal or a CI job: it shows what waits to be published and publishes
// it, runs the SDK's fake of the service as a standalone server for tests in
// any language, sends signed test webhook deliveries, and connects a user
// (the consent flow) to get a first token. Run "partner help" for the
// commands, and see the README's "The partner command".
//
// Exit codes: 0 success; 1 failure; 2 usage (a wrong flag, argument or
// setting); 3 the grant needs reconnecting (run "partner connect"); 4 some
// items failed.
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
