// Package keys holds the types of the translation keys a partner works
// with through the service's translation tools (createKeys, listKeys,
// updateKeys, deleteKeys on the MCP server at Config.MCPURL): what to send, and the results with
// readable Go names instead of the tools' terse wire fields. The calls
// themselves are methods of partner.Client.Keys.
//
// Projects are named "org/project" (the project's slug from listProjects),
// as the tools name them. Partial failures (skipped duplicates, blocked
// keys, unknown ids) are fields of the results, not Go errors. Every result
// keeps the tool's whole answer in Raw, because the tools change more often
// than their documentation.
//
// A listing of every page (Keys.All, Keys.Pages) always ends: a page that
// repeats the keys of earlier pages, or more pages than the first page's
// total allows (ceil(total/PageSize), plus 2 and a tenth for keys added
// meanwhile), end it with partner.ErrUnexpectedResponse. Without a total,
// the bound is 10,000 pages and the margin.
package keys
