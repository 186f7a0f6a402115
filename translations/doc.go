// Package translations holds the types of the translation work a partner
// does through the service's translation tools (the MCP server at Config.MCPURL): reading and
// writing translations (getTranslations, setTranslations), pending changes
// and publishing (getPendingChanges, publishTranslations), the sync jobs
// that ship a publish (getSyncs, getSync, cancelSync), the translation
// context (getTranslationContext: glossary, memory matches, tone) and a
// project's languages (proposeLanguages, proposeLanguageEdits). The calls
// themselves are methods of partner.Client.Translations.
//
// Go names are readable, never the tools' terse wire fields. Partial
// failures are fields of the results, not Go errors, and every result keeps
// the tool's whole answer in Raw.
package translations
