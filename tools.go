package partner

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"slices"

	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/internal/mcpsession"
	"github.com/locsvc/partner-go/internal/toolcalls"
	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/translations"
)

// MCPServer names one of the service's two MCP servers.
type MCPServer string

// The service's MCP servers.
const (
	// TranslationTools is the server at Config.MCPURL: keys,
	// translations, publishing, syncs, glossary context and languages.
	TranslationTools MCPServer = "translations"
	// ContentTools is the server at Config.ContentMCPURL:
	// content models, fields, entries and blocks.
	ContentTools MCPServer = "content"
)

// session returns the grant's session with server, made on first use; it
// connects on its first call.
func (c *Client) session(server MCPServer) (*mcpsession.Session, error) {
	i := slices.Index([]MCPServer{TranslationTools, ContentTools}, server) // the index of c.mcp and c.sh.mcp
	if i < 0 {
		return nil, apierr.ArgumentError("server", fmt.Sprintf("%s is not an MCP server of the service; want partner.TranslationTools or partner.ContentTools", apierr.Quote(string(server))))
	}
	at := c.sh.mcp[i]
	if at.url == "" {
		return nil, apierr.ArgumentError(at.setting, fmt.Sprintf("is required for the %s tools", server))
	}
	c.mcpMu.Lock()
	defer c.mcpMu.Unlock()
	switch {
	case c.closed:
		return nil, ErrClosed
	case c.mcp[i] != nil:
		return c.mcp[i], nil
	}
	var err error // New returns nil with it, leaving the slot empty
	c.mcp[i], err = mcpsession.New(mcpsession.Config{URL: at.url, Setting: at.setting, Tokens: c.install, Runner: c.sh.runner})
	return c.mcp[i], err
}

// Close closes the grant's MCP sessions and leaves no goroutine behind.
// Tool calls in flight are cancelled and, like tool calls after it,
// return ErrClosed; Close does not wait for them. A token refresh or mint
// in flight (one started ahead included) is waited for, not cut short: a
// refresh cut short could spend a refresh token without saving the next
// one. It ends within RefreshTimeout. REST calls keep working. It is safe
// to call more than once, and returns nil.
func (c *Client) Close() error {
	c.mcpMu.Lock()
	ss := c.mcp
	c.closed = true
	c.mcpMu.Unlock()
	for _, s := range ss {
		if s != nil {
			s.Close() // its connections close once their calls end
		}
	}
	_ = c.install.Wait(context.Background()) // each ends within RefreshTimeout
	_ = c.access.Wait(context.Background())
	return nil
}

// drain lets go of the grant's MCP connection without closing the client:
// calls in flight finish, and a later call connects again.
func (c *Client) drain() {
	c.mcpMu.Lock()
	ss := c.mcp
	c.mcpMu.Unlock()
	for _, s := range ss {
		if s != nil {
			s.Drain()
		}
	}
}

// caller is the toolcalls.Caller of one server of a client.
type caller struct {
	c      *Client
	server MCPServer
}

func (t caller) Call(ctx context.Context, tool string, args any) ([]byte, error) {
	s, err := t.c.session(t.server)
	if err != nil {
		return nil, err
	}
	if h := t.c.sh.hooks; h != nil {
		return t.c.observeTool(ctx, h, s, t.server, tool, args)
	}
	data, err := s.Call(ctx, tool, args)
	return data, public(err)
}

// KeysService creates, lists, updates and deletes translation keys
// through the translation tools (Config.MCPURL). Projects are named
// "org/project", as the tools name them.
type KeysService service

// All returns every key of project matching opt, page after page
// (listKeys); it stops at the first error, which it yields. Breaking out
// of the loop stops the listing. A read: it is retried like a GET.
func (s *KeysService) All(ctx context.Context, project string, opt keys.ListOptions) iter.Seq2[keys.Key, error] {
	return toolcalls.AllKeys(ctx, caller{s.c, TranslationTools}, project, opt)
}

// Pages returns the pages of project's keys matching opt (listKeys), with
// each page's totals and namespaces.
func (s *KeysService) Pages(ctx context.Context, project string, opt keys.ListOptions) iter.Seq2[*keys.Page, error] {
	return toolcalls.KeyPages(ctx, caller{s.c, TranslationTools}, project, opt)
}

// Create creates keys with their source texts and, optionally,
// translations (createKeys). A key that exists (same name and namespace)
// is skipped and reported in the result, not an error; so are keys the
// service blocks as likely duplicates of another namespace's, unless opt
// has Force; keys.CreateOptions{} takes the defaults.
//
// Create changes something: when the connection breaks after it was sent,
// it is not sent again and the error matches ErrTemporary (check with
// All whether the keys exist before trying again).
func (s *KeysService) Create(ctx context.Context, project string, ks []keys.NewKey, opt keys.CreateOptions) (*keys.CreateResult, error) {
	return toolcalls.CreateKeys(ctx, caller{s.c, TranslationTools}, project, ks, opt)
}

// Update changes key texts (updateKeys). Unknown key ids are listed in
// the result's Errors.
func (s *KeysService) Update(ctx context.Context, project string, us []keys.Update) (*keys.UpdateResult, error) {
	return toolcalls.UpdateKeys(ctx, caller{s.c, TranslationTools}, project, us)
}

// Delete marks keys deleted (deleteKeys); they are gone for good at the
// next publish. More than keys.MaxDelete ids are refused with
// ErrInvalidArgument before any request, not split: a partial delete
// would be hard to report.
func (s *KeysService) Delete(ctx context.Context, project string, ids []string) (*keys.DeleteResult, error) {
	return toolcalls.DeleteKeys(ctx, caller{s.c, TranslationTools}, project, ids)
}

// TranslationsService reads and writes translations, publishes them and
// follows the sync jobs that ship them, reads the glossary context, and
// proposes target languages, through the translation tools
// (Config.MCPURL). Projects are named "org/project".
type TranslationsService service

// ListProjects lists the projects the grant can use (listProjects), with
// their languages and file layout. Name them to the other tools by
// their Slug ("org/project"). Not the REST Projects service, which names
// projects by id.
func (s *TranslationsService) ListProjects(ctx context.Context) (*translations.ProjectList, error) {
	return toolcalls.ListProjects(ctx, caller{s.c, TranslationTools})
}

// GetProject returns project's overview (getProject): its languages,
// namespaces, key counts and coverage, and where its files are served
// (CDN URLs, file structure and key format), as locale sync needs them.
func (s *TranslationsService) GetProject(ctx context.Context, project string) (*translations.Project, error) {
	return toolcalls.GetProject(ctx, caller{s.c, TranslationTools}, project)
}

// Get returns translations of project's keys (getTranslations), with the
// details of their namespaces when the service sends them.
func (s *TranslationsService) Get(ctx context.Context, project string, q translations.GetOptions) (*translations.Result, error) {
	return toolcalls.GetTranslations(ctx, caller{s.c, TranslationTools}, project, q)
}

// Set writes translations (setTranslations); they are pending until
// published. More than translations.MaxSet keys are refused with
// ErrInvalidArgument before any request, not split. Per-key failures are
// in the result's Errors.
func (s *TranslationsService) Set(ctx context.Context, project string, vs []translations.Values) (*translations.SetResult, error) {
	return toolcalls.SetTranslations(ctx, caller{s.c, TranslationTools}, project, vs)
}

// Pending returns what the next publish would ship (getPendingChanges).
func (s *TranslationsService) Pending(ctx context.Context, project string) (*translations.PendingChanges, error) {
	return toolcalls.PendingChanges(ctx, caller{s.c, TranslationTools}, project)
}

// Publish publishes the pending changes, all of them or opt's selection
// (publishTranslations), and returns the sync jobs it started. A publish
// within the service's cooldown fails with a *ToolError matching
// ErrTemporary, whose RetryAfter is the wait the service gives (or else
// its 30 s cooldown); Publish does not wait: PublishAndWait does.
func (s *TranslationsService) Publish(ctx context.Context, project string, opt translations.PublishOptions) (*translations.PublishResult, error) {
	return toolcalls.Publish(ctx, caller{s.c, TranslationTools}, project, opt)
}

// ListSyncs lists project's sync jobs (getSyncs). A Status the tool
// cannot filter by (SyncCancelled) is refused with ErrInvalidArgument
// before any request.
func (s *TranslationsService) ListSyncs(ctx context.Context, project string, opt translations.ListSyncsOptions) (*translations.SyncList, error) {
	return toolcalls.ListSyncs(ctx, caller{s.c, TranslationTools}, project, opt)
}

// GetSync returns one sync job (getSync).
func (s *TranslationsService) GetSync(ctx context.Context, id string) (*translations.Sync, error) {
	return toolcalls.GetSync(ctx, caller{s.c, TranslationTools}, id)
}

// WaitSync returns the sync job id once it is completed, failed or
// cancelled. It long-polls with getSync's waitMs (no sleep loop), until
// ctx ends.
func (s *TranslationsService) WaitSync(ctx context.Context, id string) (*translations.Sync, error) {
	return toolcalls.WaitSync(ctx, caller{s.c, TranslationTools}, id)
}

// CancelSync cancels a sync job of project that has not finished
// (cancelSync).
func (s *TranslationsService) CancelSync(ctx context.Context, project, id string) (*translations.CancelResult, error) {
	return toolcalls.CancelSync(ctx, caller{s.c, TranslationTools}, project, id)
}

// TranslationContext returns what translators need for keys of project: glossary
// terms, translation-memory matches and the project's tone
// (getTranslationContext).
func (s *TranslationsService) TranslationContext(ctx context.Context, project string, opt translations.ContextOptions) (*translations.Context, error) {
	return toolcalls.TranslationContext(ctx, caller{s.c, TranslationTools}, project, opt)
}

// ProposeLanguages proposes target languages for project
// (proposeLanguages); the user accepts them in the service.
func (s *TranslationsService) ProposeLanguages(ctx context.Context, project string, ls []translations.LanguageProposal) (*translations.ProposeLanguagesResult, error) {
	return toolcalls.ProposeLanguages(ctx, caller{s.c, TranslationTools}, project, ls)
}

// ProposeLanguageEdits proposes changes to project's target languages
// (proposeLanguageEdits).
func (s *TranslationsService) ProposeLanguageEdits(ctx context.Context, project string, es []translations.LanguageEdit) (*translations.ProposeLanguageEditsResult, error) {
	return toolcalls.ProposeLanguageEdits(ctx, caller{s.c, TranslationTools}, project, es)
}

// ToolsService lists and calls any tool of the service's MCP servers, for
// the tools the SDK does not wrap.
type ToolsService service

// Tool is one tool an MCP server lists.
type Tool struct {
	Name        string
	Title       string
	Description string
	InputSchema json.RawMessage // the JSON Schema of the tool's arguments
	// ReadOnly is the tool's readOnlyHint: a call of it may be sent again
	// after the connection broke. A tool without it is never re-sent once
	// it may have run.
	ReadOnly bool
	Raw      json.RawMessage // the tool as the server listed it
}

// List returns every tool server lists (tools/list), with its input
// schema.
func (s *ToolsService) List(ctx context.Context, server MCPServer) ([]Tool, error) {
	sess, err := s.c.session(server)
	if err != nil {
		return nil, err
	}
	listed, err := sess.ListTools(ctx)
	if err != nil {
		return nil, public(err)
	}
	out := make([]Tool, len(listed))
	for i, t := range listed {
		raw, _ := json.Marshal(t) // the go-sdk's own type: it marshals
		schema, _ := json.Marshal(t.InputSchema)
		out[i] = Tool{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: schema,
			ReadOnly: t.Annotations != nil && t.Annotations.ReadOnlyHint, Raw: raw}
	}
	return out, nil
}

// Call calls the tool name of server with args (any value that encodes
// to a JSON object, or nil) and decodes the JSON of its result into out
// (nil to ignore it; a *json.RawMessage keeps it as sent), leniently: a
// field whose JSON type does not fit is left alone. Failures are the same
// typed errors as the wrapped tools'. A tool is sent again after a broken
// connection only when the server marks it read-only (readOnlyHint) or,
// before List was called, when it is one of the service's list* and get*
// reads.
func (s *ToolsService) Call(ctx context.Context, server MCPServer, name string, args, out any) error {
	_, err := toolcalls.Call(ctx, caller{s.c, server}, name, args, out)
	return err
}
