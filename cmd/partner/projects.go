package main

import (
	"context"
	"strings"

	"github.com/spf13/cobra"

	"github.com/locsvc/partner-go/translations"
)

// projectsResult is what "partner projects list --json" prints.
type projectsResult struct {
	Projects []projectView `json:"projects"`
	// CDN is the CDN's address, when the service gives it.
	CDN string `json:"cdn,omitempty"`
}

// projectView is one project the grant can use.
type projectView struct {
	// Project names it as --project takes it: "org/project".
	Project        string                     `json:"project"`
	Name           string                     `json:"name"`
	Organization   string                     `json:"organization"`
	SourceLanguage string                     `json:"sourceLanguage"`
	Languages      []string                   `json:"languages"`
	FileStructure  translations.FileStructure `json:"fileStructure"`
	KeyFormat      translations.KeyFormat     `json:"keyFormat"`
}

func (a *app) projectsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "projects",
		Short: "List the projects the grant can use",
		Args:  usageArgs(cobra.NoArgs),
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "list [--json]",
		Short: "List the projects of the grant's organizations, by the ORG/PROJECT name --project takes",
		Long: `list lists the projects of the organizations the grant covers, with one call
of the translation tools' listProjects: each by the ORG/PROJECT name --project
takes, with its name, organization, source and target languages and file
layout.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error { return runProjectsList(cmd.Context(), a) },
	})
	return cmd
}

// runProjectsList runs "partner projects list".
func runProjectsList(ctx context.Context, a *app) error {
	c, done, err := a.client(ctx)
	if err != nil {
		return err
	}
	defer done()
	l, err := c.Translations.ListProjects(ctx)
	if err != nil {
		return err
	}
	res := projectsResult{Projects: []projectView{}, CDN: l.CDNBaseURL}
	for _, p := range l.Projects {
		res.Projects = append(res.Projects, projectView{
			Project: p.Slug, Name: p.Name, Organization: p.OrganizationName, SourceLanguage: p.SourceLanguage,
			Languages: append([]string{}, p.TargetLanguages...), FileStructure: p.FileStructure, KeyFormat: p.KeyFormat,
		})
	}
	return a.printResult(res, func() {
		if len(res.Projects) == 0 {
			a.out.println("no projects: the grant covers none")
			return
		}
		for _, p := range res.Projects {
			a.out.printf("%-30s %s (%s): %s; %s\n", p.Project, p.Name, p.Organization, p.SourceLanguage, strings.Join(p.Languages, ", "))
		}
	})
}
