// Package locales keeps a project's locale files and the service in
// step: read a tree of locale files (Load), compare it with the project
// and say what a push would do (NewPlan), carry that out (Plan.Apply,
// optionally publishing and waiting for the sync jobs), and bring the
// project's texts back into a tree (Pull, then Catalog.Write).
//
// # Where a platform keeps its files
//
// An app's files sit where its platform's tooling keeps them
// (res/values-pt-rBR/strings.xml, zh-Hans.lproj/Localizable.strings,
// po/pt_BR.po beside po/app.pot, config/locales/blacklight.de.yml). A
// Layout's Groups find them by path patterns with placeholders for the
// language in each platform's spelling, the namespace and folders (see
// Group); package locales/formats has each platform's groups
// (formats.Presets) and finds them in a tree (formats.Detect). A tree's
// partner.yaml (Config, ReadConfig) holds its groups and project, so a
// Go program and the partner command read and write the same paths.
//
// A pull writes over a file through its format, which changes only the
// texts that changed and keeps every other byte; an entry a file marks
// not translated yet (Message.Untranslated) is never pushed; keys of
// formats whose keys are identifiers (OpaqueKeys) are taken whole.
//
// # The service's JSON layouts
//
// The service lays its files out as a project's fileStructure and
// keyFormat say, and a tree here follows the same rules (see Layout):
//
//	translations.SingleFile         <dir>/<lang>.json              (CDN: <lang>/translations.json)
//	translations.NamespacedFolders  <dir>/<lang>/<namespace>.json  (the default namespace is default.json)
//	translations.Flat           {"nav.home": "Home"}
//	translations.Nested         {"nav": {"home": "Home"}}
//
// In a single file the default namespace's keys sit at the top level and
// another namespace's keys are written "namespace:key". Languages are
// compared as the service compares them, without regard to case:
// pt-BR.json on disk is the project's pt-br, and stays pt-BR.json when
// written back. A new JSON file is written stable (members sorted,
// two-space indentation, a final newline); an existing one keeps its
// own order and indentation. A pull followed by a push changes nothing,
// and a diff of a tree shows only real changes.
//
// # Push
//
// A plan lists the project's keys with their texts (listKeys, a page at
// a time) and writes only what differs: keys to create with their source
// text and translations, source texts and translations to change, and,
// only with PlanOptions.Delete, keys to delete (more than a tenth of the
// project needs AllowMassDelete too). A plan that writes nothing is
// Empty; it is also the dry run. Bad input (malformed files, duplicate or
// empty keys, a key that is both a text and a parent, a language the
// project lacks) is refused before anything is written, as an
// *InputError naming the file, line and key of every problem.
//
// Apply sends the fewest calls the tools allow, several at a time under
// the client's pacing. A failed call stops the push and the Report says,
// per key, what was written and what was not; since a plan writes only
// what differs, pushing again completes it. A text the service may or
// may not have written (a call whose answer never came) is listed in
// Report.NotConfirmed and the error matches ErrNotConfirmed: a push run
// again finds what is there and writes the rest. With ApplyOptions.Publish a push
// that wrote everything publishes the project and waits for its sync
// jobs. Progress goes to a callback; the package never prints.
//
// # Pull
//
// Pull lists every text through the tools, whatever its status; with
// PullOptions.FromCDN it reads the published files instead, and with
// PullOptions.CDN it needs neither client nor token. Catalog.Write
// writes the tree. Names come from the service, so a language or
// namespace that cannot be a file name on Linux, macOS and Windows
// alike (.., a separator, CON, a trailing dot) is refused, as are two
// that would be one file where case is ignored. Load and Write read
// and write regular files inside the tree only: a link, a pipe or a
// device in the tree is refused, never followed.
//
// # Other formats
//
// A Format reads a file into messages and writes messages into a file;
// JSON is the service's own, and Layout.Format takes others: ARB,
// Android, AppleStrings, XCStrings, PO, GoText, XLIFF, YAML and Java
// properties, all in the module github.com/locsvc/partner-go/locales/formats
// (formats.All lists them; formats.DetectFormat picks one by extension
// and refuses mixed trees).
//
// # Plural forms
//
// The service holds one text per key and language, so a format's plural
// entry (a gettext msgstr[n] list, an Android <plurals>, an .xcstrings
// plural variation, a gotext plural select) is one text in ICU
// MessageFormat, the syntax ARB files already use:
//
//	{count, plural, one {%d file} other {%d files}}
//
// The branches are the platform's texts as they are (%d stays %d), in
// the order the file has them; the argument is "count" where the format
// names none. In a branch ICU's special characters {, } and # are quoted
// ('{'), and an apostrophe before one of them, before another
// apostrophe or at the end is doubled; gotext's branches keep their
// {Placeholder}s, which ICU reads as arguments. A text is written back
// as the platform's plural entry when it is exactly such a plural (any
// spacing), and as a plain text otherwise; a plain text that would read
// as a plural is refused on reading, since writing it back would change
// it. Arrays (Android string-arrays, YAML sequences) are keys k.0, k.1,
// as i18next names an array's items. What a format cannot map is
// refused before anything is written, as an *InputError.
package locales
