// Command example prints the spans and metrics of a few SDK calls against
// partnertest, the SDK's in-process fake of the service, with
// OpenTelemetry's stdout exporters: a REST call answered 503 once, then
// retried; a tool call; and the token refresh and mint they wait for.
//
//	cd otel && go run ./example
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"

	"go.opentelemetry.io/otel/exporters/stdout/stdoutmetric"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	partnerotel "github.com/locsvc/partner-go/otel"
	"github.com/locsvc/partner-go/partnertest"
)

func main() {
	if err := run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "example:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	spans, err := stdouttrace.New(stdouttrace.WithPrettyPrint())
	if err != nil {
		return err
	}
	metrics, err := stdoutmetric.New(stdoutmetric.WithPrettyPrint())
	if err != nil {
		return err
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewPeriodicReader(metrics)))
	hooks, err := partnerotel.New(partnerotel.WithTracerProvider(tp), partnerotel.WithMeterProvider(mp))
	if err != nil {
		return err
	}

	fake := partnertest.NewServer()
	defer fake.Close()
	g := fake.NewGrant()
	p := fake.AddProject(g.Organizations[0].ID, partnertest.Project{Name: "Web", Slug: "web", SourceLanguage: "en"})
	fake.InjectFault(partnertest.Fault{Method: http.MethodGet, Path: "/api/oauth-client/v1/projects/*", Status: http.StatusServiceUnavailable})

	c, err := partner.NewClient(partner.Config{
		BaseURL: fake.URL, AuthURL: fake.AuthURL, MCPURL: fake.MCPURL,
		ClientID: fake.ClientID(), ClientSecret: fake.ClientSecret(),
		GrantID: g.ID, Token: &oauth2.Token{RefreshToken: g.RefreshToken},
		HTTPClient: fake.Client(),
		Hooks:      hooks, // the one setting: every call, attempt and token event
	})
	if err != nil {
		return err
	}
	defer c.Close()

	if _, err := c.Projects.Get(ctx, p.ID); err != nil { // 503, then 200
		return err
	}
	var out json.RawMessage
	if err := c.Tools.Call(ctx, partner.TranslationTools, "getProject", map[string]any{"project": g.Organizations[0].Slug + "/web"}, &out); err != nil {
		return err
	}

	// Shutting the providers down flushes what they hold to stdout.
	if err := tp.Shutdown(ctx); err != nil {
		return err
	}
	return mp.Shutdown(ctx)
}
