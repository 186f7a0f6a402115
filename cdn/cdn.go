// Package cdn reads a project's published translation files from the
// service's public CDN. The CDN needs no token, so neither does this
// package: no partner.Client, no grant, just the CDN's address
// (translations.ProjectList.CDNBaseURL, or partnertest.Server.CDNURL in
// tests) and the project's name and layout.
//
// Files are laid out as the project's translations.FileStructure says:
//
//	{base}/{org}/{project}/{language}/translations.json  translations.SingleFile
//	{base}/{org}/{project}/{language}/{namespace}.json   translations.NamespacedFolders
//	{base}/{org}/{project}/manifest.json                 the files, by language
//
// The CDN serves what the latest completed publish shipped; a file of
// nothing published yet is missing (ErrNotFound). Errors match
// partner.ErrTemporary (a network failure, 429 or 5xx: try again later),
// partner.ErrInvalidArgument (a name that cannot be a path segment,
// refused before any request) or partner.ErrUnexpectedResponse (another
// status, a body over MaxFileBytes, a manifest that is not JSON) with
// errors.Is.
package cdn

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/translations"
)

// MaxFileBytes is the most a file may hold, as the SDK caps the bodies it
// reads: 64 MiB. A longer one fails with partner.ErrUnexpectedResponse.
const MaxFileBytes = 64 << 20

// ErrNotFound is a file or manifest the CDN does not have (404): nothing
// of it has been published yet, or the project or layout is not the one
// given.
var ErrNotFound = errors.New("cdn: not found")

// errOtherHost is a redirect the client refused.
var errOtherHost = errors.New("cdn: refused a redirect to another host")

// A Client reads files from one CDN. It is safe for concurrent use.
type Client struct {
	base *url.URL
	hc   *http.Client
}

// NewClient returns a client of the CDN at baseURL, an http or https URL,
// that sends its requests with hc (nil: a client with a one-minute
// timeout). It sends no token, and follows a redirect only to baseURL's
// own scheme and host (in any letter case). hc is not modified.
func NewClient(baseURL string, hc *http.Client) (*Client, error) {
	u, err := url.Parse(baseURL)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return nil, apierr.ArgumentError("CDN base URL", fmt.Sprintf("%q is not an http or https URL of a host, without user, query or fragment", baseURL))
	}
	if hc == nil {
		hc = &http.Client{Timeout: time.Minute}
	}
	c := *hc
	next := hc.CheckRedirect
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		// The origin rule of internal/transport's Origin, without
		// importing its retrying client and oauth2 into this package.
		if !strings.EqualFold(req.URL.Scheme+"://"+req.URL.Host, u.Scheme+"://"+u.Host) {
			return fmt.Errorf("%w (%s://%s); give NewClient the base URL the CDN redirects to", errOtherHost, req.URL.Scheme, req.URL.Host)
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= 10 {
			return errors.New("cdn: stopped after 10 redirects")
		}
		return nil
	}
	return &Client{base: u, hc: &c}, nil
}

// File returns the file of language (and namespace, with
// translations.NamespacedFolders) of project ("org/project"), laid out as
// structure ("" is translations.SingleFile, the service's default), as
// the CDN serves it: a JSON object of the published texts, nested or
// flat as the project's translations.KeyFormat says. With SingleFile,
// namespace must be "": the file holds every namespace.
func (c *Client) File(ctx context.Context, project string, structure translations.FileStructure, language, namespace string) ([]byte, error) {
	var name string
	switch structure {
	case "", translations.SingleFile:
		if namespace != "" {
			return nil, apierr.ArgumentError("namespace", "must be empty with the single_file structure: one file holds every namespace")
		}
		name = "translations.json"
	case translations.NamespacedFolders:
		if err := checkSegment("namespace", namespace); err != nil {
			return nil, err
		}
		name = namespace + ".json"
	default:
		return nil, apierr.ArgumentError("structure", fmt.Sprintf("%q is not single_file or namespaced_folders", structure))
	}
	if err := checkSegment("language", language); err != nil {
		return nil, err
	}
	return c.get(ctx, project, language, name)
}

// A Manifest is a project's manifest.json. Its shape is not documented:
// Files is read from a "files" member that maps languages to a path or a
// list of paths, or lists paths whose first segment is the language; it
// is nil otherwise. Raw keeps the manifest as sent.
type Manifest struct {
	// Files maps language codes to the paths of their files below the
	// project's folder, for example "de/translations.json".
	Files map[string][]string
	Raw   json.RawMessage // the manifest as the CDN sent it
}

// Manifest returns project's manifest ("org/project").
func (c *Client) Manifest(ctx context.Context, project string) (*Manifest, error) {
	b, err := c.get(ctx, project, "manifest.json")
	if err != nil {
		return nil, err
	}
	m, err := ParseManifest(b)
	if err != nil {
		return nil, fmt.Errorf("cdn: the manifest of %s: %w", project, err)
	}
	return m, nil
}

// ParseManifest reads a manifest.json as Client.Manifest does. It fails
// with partner.ErrUnexpectedResponse only when b is not a JSON object.
func ParseManifest(b []byte) (*Manifest, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil || top == nil {
		return nil, fmt.Errorf("%w: not a JSON object", apierr.ErrUnexpectedResponse)
	}
	m := &Manifest{Raw: json.RawMessage(b)}
	var byLang map[string]json.RawMessage
	var list []string
	switch files := top["files"]; {
	case json.Unmarshal(files, &byLang) == nil && byLang != nil:
		for lang, v := range byLang {
			if lang == "" {
				continue // no language: as in a list, a path needs one
			}
			var one string
			var many []string
			switch {
			case json.Unmarshal(v, &one) == nil && one != "":
				many = []string{one}
			case json.Unmarshal(v, &many) == nil:
			default:
				continue
			}
			if m.Files == nil {
				m.Files = map[string][]string{}
			}
			m.Files[lang] = append(m.Files[lang], many...)
		}
	case json.Unmarshal(files, &list) == nil && list != nil:
		for _, p := range list {
			lang, _, ok := strings.Cut(p, "/")
			if !ok || lang == "" {
				continue
			}
			if m.Files == nil {
				m.Files = map[string][]string{}
			}
			m.Files[lang] = append(m.Files[lang], p)
		}
	}
	return m, nil
}

// get returns the body of {base}/{project}/{segments...}.
func (c *Client) get(ctx context.Context, project string, segments ...string) ([]byte, error) {
	org, name, ok := strings.Cut(project, "/")
	if !ok {
		return nil, apierr.ArgumentError("project", fmt.Sprintf("%q is not org/project", project))
	}
	if err := cmp.Or(checkSegment("project's org", org), checkSegment("project", name)); err != nil {
		return nil, err
	}
	// JoinPath takes escaped segments: unescaped, "a%2F.." would reach
	// the server as a way up.
	segments = append([]string{org, name}, segments...)
	for i, seg := range segments {
		segments[i] = url.PathEscape(seg)
	}
	u := c.base.JoinPath(segments...)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("cdn: %w", err)
	}
	resp, err := c.hc.Do(req)
	if errors.Is(err, errOtherHost) {
		return nil, fmt.Errorf("cdn: GET %s: %w: %w", u.Redacted(), apierr.ErrUnexpectedResponse, err)
	}
	if err != nil {
		return nil, fmt.Errorf("cdn: GET %s: %w: %w", u.Redacted(), apierr.ErrTemporary, err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return nil, fmt.Errorf("cdn: GET %s: %w", u.Redacted(), ErrNotFound)
	case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500:
		return nil, fmt.Errorf("cdn: GET %s: %s: %w", u.Redacted(), resp.Status, apierr.ErrTemporary)
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("cdn: GET %s: %s: %w", u.Redacted(), resp.Status, apierr.ErrUnexpectedResponse)
	case resp.ContentLength > MaxFileBytes:
		return nil, fmt.Errorf("cdn: GET %s: %d bytes, over %d MiB: %w", u.Redacted(), resp.ContentLength, MaxFileBytes>>20, apierr.ErrUnexpectedResponse)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("cdn: GET %s: %w: %w", u.Redacted(), apierr.ErrTemporary, err)
	}
	if len(b) > MaxFileBytes {
		return nil, fmt.Errorf("cdn: GET %s: over %d MiB: %w", u.Redacted(), MaxFileBytes>>20, apierr.ErrUnexpectedResponse)
	}
	return b, nil
}

// checkSegment refuses a name that is not one path segment of its own:
// empty, "." or "..", or with a slash, a backslash, a control character
// or invalid UTF-8.
func checkSegment(field, s string) error {
	switch {
	case s == "", s == ".", s == "..":
		return apierr.ArgumentError(field, fmt.Sprintf("%q is not a name", s))
	case !utf8.ValidString(s):
		return apierr.ArgumentError(field, "is not valid UTF-8")
	case strings.ContainsAny(s, `/\`) || strings.ContainsFunc(s, unicode.IsControl):
		return apierr.ArgumentError(field, fmt.Sprintf("%q has a slash, a backslash or a control character", s))
	}
	return nil
}
