package partner_test

import (
	"context"
	"fmt"

	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/translations"
)

// List the projects the grant can use, by the names the tools give them,
// with their file layout.
func ExampleTranslationsService_ListProjects() {
	srv := partnertest.NewServer()
	defer srv.Close()
	c, _ := exampleToolsClient(srv)
	defer c.Close()

	list, err := c.Translations.ListProjects(context.Background())
	if err != nil {
		panic(err)
	}
	for _, p := range list.Projects {
		fmt.Println(p.Slug, p.SourceLanguage, p.TargetLanguages, p.FileStructure, p.KeyFormat)
	}
	// Output:
	// acme/marketing en [de] single_file nested
}

// Read what locale sync needs of a project: its languages, namespaces and
// where its published files are.
func ExampleTranslationsService_GetProject() {
	srv := partnertest.NewServer()
	defer srv.Close()
	c, project := exampleToolsClient(srv)
	defer c.Close()
	ctx := context.Background()
	if _, err := c.Keys.Create(ctx, project, []keys.NewKey{{Name: "nav.home", Namespace: "common", SourceText: "Home"}}, keys.CreateOptions{}); err != nil {
		panic(err)
	}

	p, err := c.Translations.GetProject(ctx, project)
	if err != nil {
		panic(err)
	}
	fmt.Println("languages:", p.SourceLanguage, p.Languages)
	for _, ns := range p.Namespaces {
		fmt.Println("namespace:", ns.Name, ns.KeyCount, "keys")
	}
	fmt.Println("layout:", p.FileStructure(), p.KeyFormat())
	fmt.Println("files:", p.CDN.Pattern == p.CDN.BaseURL+"/{locale}/translations.json", p.FileStructure() == translations.SingleFile)
	// Output:
	// languages: en [de]
	// namespace: common 1 keys
	// layout: single_file nested
	// files: true true
}
