package formats

import (
	"bytes"
	"cmp"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"maps"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/locsvc/partner-go/locales"
)

// This file finds a platform's layout in a tree: each detector looks
// at the tree's file list (and, where the names do not tell, inside a
// few files) and fits its preset's groups to the folders it finds.

// Detect returns the preset of the tree under dir, its groups fitted to
// what the tree has (Flutter's l10n.yaml arb-dir and template file, the
// gettext domain, the folder a Rails or i18next tree keeps its files
// in). A tree that matches no preset, or several, is refused as a
// *locales.InputError listing what it found.
//
// It lists the tree with locales.ListFiles. A preset whose files show
// one language at most (a React Native app's android/…/values/strings.xml
// beside its i18next files) gives way to one whose files show several.
// Preset.SourceLanguage is set when the tree names the source language:
// l10n.yaml's template file, messages.xlf's source-language, a string
// catalog's sourceLanguage, crowdin.yml's source path, and Rails' and
// Apple's platform default, en, when an en file is there and (Apple) no
// Base.lproj is. Android's values/, a .pot and Spring's
// messages.properties name no language: it is "", for the caller to
// fill in (Layout.SourceLanguage).
func Detect(dir string) (Preset, error) {
	files, err := locales.ListFiles(dir)
	if err != nil {
		return Preset{}, err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return Preset{}, fmt.Errorf("locales: %w", err)
	}
	defer root.Close()
	t := &tree{root: root, files: files}
	var all []match
	strong := false
	for _, d := range detectors {
		if m := d(t); m.file != "" {
			all = append(all, m)
			strong = strong || m.languages > 1
		}
	}
	var found []match
	var problems []locales.Problem
	for _, m := range all {
		switch {
		case strong && m.languages < 2:
		case m.problem != "":
			problems = append(problems, locales.Problem{File: m.file, Message: m.preset.Name + ": " + m.problem})
		default:
			found = append(found, m)
		}
	}
	if len(problems) == 0 && len(found) == 1 {
		return found[0].preset, nil
	}
	if len(problems) == 0 && len(found) == 0 {
		var names []string
		for _, p := range Presets() {
			names = append(names, p.Name)
		}
		return Preset{}, &locales.InputError{Problems: []locales.Problem{{Message: fmt.Sprintf(
			"no locale files of a known platform under %s (looked for %s); write partner.yaml's files by hand", dir, strings.Join(names, ", "))}}}
	}
	for _, m := range found {
		var pats []string
		for _, g := range m.preset.Groups {
			pats = append(pats, g.Translation)
		}
		problems = append(problems, locales.Problem{File: m.file, Message: fmt.Sprintf("looks like %s (%s)", m.preset.Name, strings.Join(pats, ", "))})
	}
	if len(problems) > 1 {
		problems = append(problems, locales.Problem{Message: "the tree matches several platforms' layouts; write partner.yaml's files for the ones to sync, or point at a folder holding one"})
	}
	slices.SortStableFunc(problems, func(a, b locales.Problem) int { return strings.Compare(a.File, b.File) })
	return Preset{}, &locales.InputError{Problems: problems}
}

// A match is what a detector found.
type match struct {
	preset    Preset
	file      string // a file that shows it; "" when nothing matched
	languages int    // how many languages its files show, the source's counting
	problem   string // why the tree cannot be fitted, when it matched
}

// detectors are the presets' detectors, in Presets' order.
var detectors = []func(*tree) match{
	detectAndroid, detectAppleStrings, detectXCStrings, detectFlutter, detectGettext,
	detectAngular, detectRails, detectI18next, detectProperties, detectGoText, detectJSON,
}

// A tree is a listed tree, for the detectors.
type tree struct {
	root  *os.Root
	files []string
}

// maxRead is the most Detect reads of one file.
const maxRead = 8 << 20

// read returns file's content, up to maxRead bytes.
func (t *tree) read(file string) ([]byte, error) {
	f, err := t.root.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxRead))
}

// has reports whether the tree holds file.
func (t *tree) has(file string) bool {
	return slices.Contains(t.files, file)
}

// matches yields each file whose path re matches, with the submatches.
func (t *tree) matches(re *regexp.Regexp) func(yield func(file string, m []string) bool) {
	return func(yield func(string, []string) bool) {
		for _, f := range t.files {
			if m := re.FindStringSubmatch(f); m != nil && !yield(f, m) {
				return
			}
		}
	}
}

// languageName matches a language as file and folder names spell it:
// pt-BR, pt_BR, zh-Hans, sr@latin (gettext), cn.
var languageName = regexp.MustCompile(`^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*(?:@[A-Za-z]+)?$`)

// androidQualifier matches Android's language qualifiers: pt, pt-rBR,
// b+sr+Latn (not sw600dp, night or v21).
var androidQualifier = regexp.MustCompile(`^(?:[a-z]{2,3}(?:-r[A-Z]{2})?|b\+[a-z]{2,3}(?:\+[A-Za-z0-9]{2,8})*)$`)

// bcp47 spells a file's language with '-' for the preset's
// SourceLanguage.
func bcp47(lang string) string { return strings.ReplaceAll(lang, "_", "-") }

// sortedKeys returns the keys of m sorted.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// several is the problem of a platform's files in several folders
// whose namespaces would be one.
func several(what string, folders []string) string {
	return fmt.Sprintf("%s in several folders (%s) whose files would be the same namespaces; write partner.yaml's files by hand, a namespace for each", what, strings.Join(folders, ", "))
}

var androidFile = regexp.MustCompile(`^(.*/)?res/values(?:-([^/]+))?/([^/]+)\.xml$`)

// detectAndroid finds res/values*/ files that hold strings: one group a
// file name, strings.xml the default namespace.
func detectAndroid(t *tree) match {
	m := match{preset: Preset{Name: "android"}}
	type resFolder struct {
		stems map[string]bool
		langs map[string]bool
	}
	byRoot := map[string]*resFolder{}
	for file, sm := range t.matches(androidFile) {
		root, qual, stem := sm[1], sm[2], sm[3]
		if qual != "" && !androidQualifier.MatchString(qual) || strings.HasPrefix(stem, "donottranslate") {
			continue
		}
		data, err := t.read(file)
		if err != nil || !holdsStrings(data) {
			continue
		}
		if m.file == "" || qual == "" && !strings.Contains(m.file, "/values/") {
			m.file = file
		}
		r := byRoot[root]
		if r == nil {
			r = &resFolder{stems: map[string]bool{}, langs: map[string]bool{}}
			byRoot[root] = r
		}
		r.stems[stem] = true
		r.langs[qual] = true
	}
	stemRoots := map[string][]string{}
	for _, root := range sortedKeys(byRoot) {
		r := byRoot[root]
		m.languages = max(m.languages, len(r.langs))
		for _, stem := range stemOrder(r.stems, "strings") {
			stemRoots[stem] = append(stemRoots[stem], root+"res")
			g := locales.Group{
				Translation: root + "res/values-{android}/" + stem + ".xml",
				Source:      root + "res/values/" + stem + ".xml",
				Format:      Android{},
			}
			if stem != "strings" {
				g.Namespace = stem
			}
			m.preset.Groups = append(m.preset.Groups, g)
		}
	}
	for _, stem := range sortedKeys(stemRoots) {
		if rs := stemRoots[stem]; len(rs) > 1 {
			m.problem = several("Android resources", rs)
		}
	}
	return m
}

// stemOrder returns the stems, first the default one if there.
func stemOrder(stems map[string]bool, first string) []string {
	s := sortedKeys(stems)
	if i := slices.Index(s, first); i > 0 {
		s = slices.Concat([]string{first}, s[:i], s[i+1:])
	}
	return s
}

// holdsStrings reports whether an Android resource file holds a
// <string>, <plurals> or <string-array> (dimens.xml, colors.xml and
// styles.xml do not).
func holdsStrings(data []byte) bool {
	d := xml.NewDecoder(bytes.NewReader(data))
	depth := 0
	for {
		tok, err := d.RawToken()
		if err != nil {
			return false
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			depth++
			if depth == 2 {
				switch tok.Name.Local {
				case "string", "plurals", "string-array":
					return true
				}
			}
		case xml.EndElement:
			depth--
		}
	}
}

var lprojFile = regexp.MustCompile(`^(.*/)?([^/]+)\.lproj/([^/]+)\.strings$`)

// detectAppleStrings finds <lang>.lproj/<table>.strings: a group for
// each folder of .lproj folders, the source in Base.lproj when it has
// .strings.
func detectAppleStrings(t *tree) match {
	m := match{preset: Preset{Name: "apple-strings"}}
	type lprojs struct {
		stems map[string]bool
		langs map[string]bool
	}
	byRoot := map[string]*lprojs{}
	langs := map[string]bool{}
	for file, sm := range t.matches(lprojFile) {
		root, lang, stem := sm[1], sm[2], sm[3]
		if lang != "Base" && !languageName.MatchString(lang) {
			continue
		}
		if m.file == "" {
			m.file = file
		}
		r := byRoot[root]
		if r == nil {
			r = &lprojs{stems: map[string]bool{}, langs: map[string]bool{}}
			byRoot[root] = r
		}
		r.stems[stem] = true
		r.langs[lang] = true
		langs[lang] = true
	}
	stemRoots := map[string][]string{}
	base := false
	for _, root := range sortedKeys(byRoot) {
		r := byRoot[root]
		g := locales.Group{Translation: root + "{language}.lproj/{namespace}.strings", DefaultName: "Localizable", Format: AppleStrings{}}
		if r.langs["Base"] {
			g.Source = root + "Base.lproj/{namespace}.strings"
			base = true
		}
		for stem := range r.stems {
			stemRoots[stem] = append(stemRoots[stem], cmp.Or(strings.TrimSuffix(root, "/"), "."))
		}
		m.preset.Groups = append(m.preset.Groups, g)
	}
	m.languages = len(langs)
	if langs["Base"] && langs["en"] {
		m.languages-- // Base is the development language, en as often as not
	}
	if !base && langs["en"] {
		m.preset.SourceLanguage = "en"
	}
	for _, stem := range sortedKeys(stemRoots) {
		if rs := stemRoots[stem]; len(rs) > 1 {
			m.problem = several(".lproj folders", rs)
		}
	}
	return m
}

// detectXCStrings finds string catalogs: one group under the folder
// that holds them all, ** when they are in several folders.
func detectXCStrings(t *tree) match {
	m := match{preset: Preset{Name: "xcstrings"}}
	var folders []string
	for _, f := range t.files {
		if !strings.HasSuffix(f, ".xcstrings") {
			continue
		}
		if m.file == "" {
			m.file = f
		}
		folders = append(folders, path.Dir(f))
		if m.preset.SourceLanguage == "" {
			m.preset.SourceLanguage = catalogSourceLanguage(t, f)
		}
	}
	if m.file == "" {
		return m
	}
	m.languages = 2 // every language in one file
	root := commonFolder(folders)
	pattern := "{namespace}.xcstrings"
	if slices.ContainsFunc(folders, func(f string) bool { return f != root }) {
		pattern = "**/" + pattern
	}
	m.preset.Groups = []locales.Group{{Translation: folderPath(root, pattern), DefaultName: "Localizable", Format: XCStrings{}}}
	return m
}

// catalogSourceLanguage returns a string catalog's sourceLanguage, or "".
func catalogSourceLanguage(t *tree, file string) string {
	data, err := t.read(file)
	if err != nil {
		return ""
	}
	var c struct {
		SourceLanguage string `json:"sourceLanguage"`
	}
	if json.Unmarshal(data, &c) != nil {
		return ""
	}
	return c.SourceLanguage
}

// commonFolder returns the longest folder that holds every folder of
// folders ("." for the root).
func commonFolder(folders []string) string {
	common := folders[0]
	for _, f := range folders[1:] {
		for common != "." && f != common && !strings.HasPrefix(f, common+"/") {
			common = path.Dir(common)
		}
	}
	return common
}

// folderPath joins folder (or "." for the root) and p.
func folderPath(folder, p string) string {
	if folder == "." || folder == "" {
		return p
	}
	return folder + "/" + p
}

// arbName splits an ARB file's stem into its prefix and locale, as
// gen-l10n reads them: app_en, intl_pt_BR, sr_Latn.
var arbName = regexp.MustCompile(`^((?:.*?[_-])?)([a-z]{2,3}(?:_[A-Z][a-z]{3})?(?:_(?:[A-Z]{2}|[0-9]{3}))?)$`)

// detectFlutter finds ARB files: the folder and template l10n.yaml
// names (arb-dir, default lib/l10n; template-arb-file, default
// app_en.arb), else the one folder of ARB files and their one prefix.
func detectFlutter(t *tree) match {
	m := match{preset: Preset{Name: "flutter"}}
	byFolder := map[string]map[string][]string{} // folder -> prefix -> locales
	for _, f := range t.files {
		stem, ok := strings.CutSuffix(path.Base(f), ".arb")
		if !ok {
			continue
		}
		sm := arbName.FindStringSubmatch(stem)
		if sm == nil {
			continue
		}
		dir := path.Dir(f)
		if byFolder[dir] == nil {
			byFolder[dir] = map[string][]string{}
		}
		byFolder[dir][sm[1]] = append(byFolder[dir][sm[1]], sm[2])
	}
	for _, f := range t.files {
		if path.Base(f) != "l10n.yaml" {
			continue
		}
		var cfg struct {
			ArbDir   string `yaml:"arb-dir"`
			Template string `yaml:"template-arb-file"`
		}
		if data, err := t.read(f); err != nil || yaml.Unmarshal(data, &cfg) != nil {
			continue
		}
		dir := path.Clean(folderPath(path.Dir(f), cmp.Or(cfg.ArbDir, "lib/l10n")))
		sm := arbName.FindStringSubmatch(strings.TrimSuffix(cmp.Or(cfg.Template, "app_en.arb"), ".arb"))
		if sm == nil || byFolder[dir] == nil {
			continue
		}
		m.file = f
		m.languages = len(byFolder[dir][sm[1]])
		m.preset.SourceLanguage = bcp47(sm[2])
		m.preset.Groups = []locales.Group{{Translation: folderPath(dir, sm[1]+"{locale}.arb"), Format: ARB{}}}
		return m
	}
	var found []string
	for _, dir := range sortedKeys(byFolder) {
		for _, prefix := range sortedKeys(byFolder[dir]) {
			found = append(found, folderPath(dir, prefix+"{locale}.arb"))
			m.languages = max(m.languages, len(byFolder[dir][prefix]))
			if m.file == "" {
				m.file = folderPath(dir, prefix+byFolder[dir][prefix][0]+".arb")
			}
			if slices.Contains(byFolder[dir][prefix], "en") {
				m.preset.SourceLanguage = "en" // gen-l10n's default template
			}
		}
	}
	switch len(found) {
	case 0:
	case 1:
		m.preset.Groups = []locales.Group{{Translation: found[0], Format: ARB{}}}
	default:
		m.problem = fmt.Sprintf("ARB files of several names (%s) and no l10n.yaml naming the template", strings.Join(found, ", "))
	}
	return m
}

var (
	poFile       = regexp.MustCompile(`^(.*/)?([^/]+)\.po$`)
	lcMessagesPO = regexp.MustCompile(`^(.*/)?([^/]+)/LC_MESSAGES/([^/]+)\.po$`)
)

// detectGettext finds <folder>/<locale>.po, with the folder's .pot as
// the source (without one, the msgids are the source texts), and
// <folder>/<locale>/LC_MESSAGES/<domain>.po with <folder>/<domain>.pot.
func detectGettext(t *tree) match {
	m := match{preset: Preset{Name: "gettext"}}
	poLangs := map[string]map[string]bool{} // folder -> languages
	for file, sm := range t.matches(poFile) {
		if strings.Contains(file, "/LC_MESSAGES/") || !languageName.MatchString(sm[2]) || path.Base(sm[1]) == sm[2] {
			continue // not <folder>/<locale>.po; help/<lang>/<lang>.po are a manual's
		}
		if poLangs[sm[1]] == nil {
			poLangs[sm[1]] = map[string]bool{}
		}
		poLangs[sm[1]][sm[2]] = true
		if m.file == "" {
			m.file = file
		}
	}
	if len(poLangs) > 1 {
		m.problem = several(".po files", sortedKeys(poLangs))
		return m
	}
	for dir, langs := range poLangs {
		g := locales.Group{Translation: dir + "{locale}.po", Format: PO{}}
		if pot := potFiles(t, dir); len(pot) > 0 {
			g.Source = pot[0]
			m.file = pot[0]
			if len(pot) > 1 {
				m.problem = fmt.Sprintf("%s holds several templates (%s); choose the source in partner.yaml", cmp.Or(strings.TrimSuffix(dir, "/"), "."), strings.Join(pot, ", "))
			}
			m.languages++
		}
		m.languages += len(langs)
		m.preset.Groups = append(m.preset.Groups, g)
	}
	lcRoots := map[string]map[string]bool{} // root -> domains
	lcLangs := map[string]bool{}
	for file, sm := range t.matches(lcMessagesPO) {
		if !languageName.MatchString(sm[2]) {
			continue
		}
		if lcRoots[sm[1]] == nil {
			lcRoots[sm[1]] = map[string]bool{}
		}
		lcRoots[sm[1]][sm[3]] = true
		lcLangs[sm[2]] = true
		if m.file == "" {
			m.file = file
		}
	}
	if len(lcRoots) > 1 {
		m.problem = several("LC_MESSAGES folders", sortedKeys(lcRoots))
		return m
	}
	for root, domains := range lcRoots {
		g := locales.Group{Translation: root + "{locale}/LC_MESSAGES/{namespace}.po", Format: PO{}}
		if !slices.ContainsFunc(sortedKeys(domains), func(d string) bool { return !t.has(root + d + ".pot") }) {
			g.Source = root + "{namespace}.pot"
		}
		if len(domains) == 1 {
			g.DefaultName = sortedKeys(domains)[0]
		}
		m.languages = max(m.languages, len(lcLangs))
		m.preset.Groups = append(m.preset.Groups, g)
	}
	return m
}

// potFiles returns the templates in folder dir.
func potFiles(t *tree, dir string) []string {
	var pots []string
	for _, f := range t.files {
		if strings.HasSuffix(f, ".pot") && path.Dir(f) == cmp.Or(strings.TrimSuffix(dir, "/"), ".") {
			pots = append(pots, f)
		}
	}
	return pots
}

var (
	xlfFile        = regexp.MustCompile(`^(.*/)?messages(?:\.([^/.]+))?\.(xlf|xliff)$`)
	xliffSourceLng = regexp.MustCompile(`(?:source-language|srcLang)\s*=\s*["']([^"']+)["']`)
)

// detectAngular finds Angular's messages.xlf and messages.<lang>.xlf
// (XLIFF 1.2 or 2.0), with messages.xlf's source language.
func detectAngular(t *tree) match {
	m := match{preset: Preset{Name: "angular"}}
	type folder struct {
		ext    string
		source bool
		langs  int
	}
	byDir := map[string]*folder{}
	for file, sm := range t.matches(xlfFile) {
		dir, lang, ext := sm[1], sm[2], sm[3]
		if lang != "" && !languageName.MatchString(lang) {
			continue
		}
		f := byDir[dir]
		if f == nil {
			f = &folder{ext: ext}
			byDir[dir] = f
		}
		f.langs++
		if lang == "" {
			f.source = true
			m.file = file
			if data, err := t.read(file); err == nil {
				if sm := xliffSourceLng.FindSubmatch(data[:min(len(data), 4096)]); sm != nil {
					m.preset.SourceLanguage = string(sm[1])
				}
			}
		} else if m.file == "" {
			m.file = file
		}
	}
	if len(byDir) > 1 {
		m.problem = several("Angular messages files", sortedKeys(byDir))
		return m
	}
	for dir, f := range byDir {
		g := locales.Group{Translation: dir + "messages.{language}." + f.ext, Format: XLIFF{}}
		if f.source {
			g.Source = dir + "messages." + f.ext
		}
		m.languages = f.langs
		m.preset.Groups = append(m.preset.Groups, g)
	}
	return m
}

var railsFile = regexp.MustCompile(`^(.*/)?config/locales/(.+)\.(yml|yaml)$`)

// detectRails finds config/locales/<lang>.yml and
// config/locales/**/<name>.<lang>.yml.
func detectRails(t *tree) match {
	m := match{preset: Preset{Name: "rails"}}
	type folder struct {
		bare, named, nested bool
		ext                 string
	}
	byRoot := map[string]*folder{}
	langs := map[string]bool{}
	for file, sm := range t.matches(railsFile) {
		root, rest, ext := sm[1], sm[2], sm[3]
		dir, stem := path.Split(rest)
		name, lang, named := cutLast(stem, ".")
		if !named {
			lang = stem
		}
		if !languageName.MatchString(lang) || !named && dir != "" {
			continue
		}
		f := byRoot[root]
		if f == nil {
			f = &folder{ext: ext}
			byRoot[root] = f
		}
		f.bare = f.bare || !named
		f.named = f.named || named && name != ""
		f.nested = f.nested || named && dir != ""
		langs[lang] = true
		if m.file == "" || lang == "en" && !strings.Contains(m.file, "en.") {
			m.file = file
		}
	}
	if len(byRoot) > 1 {
		m.problem = several("config/locales folders", sortedKeys(byRoot))
		return m
	}
	for root, f := range byRoot {
		dir := root + "config/locales/"
		if f.named {
			p := dir + "{namespace}.{language}." + f.ext
			if f.nested {
				p = dir + "**/{namespace}.{language}." + f.ext
			}
			m.preset.Groups = append(m.preset.Groups, locales.Group{Translation: p, Format: YAML{}})
		}
		if f.bare {
			m.preset.Groups = append(m.preset.Groups, locales.Group{Translation: dir + "{language}." + f.ext, Format: YAML{}})
		}
	}
	m.languages = len(langs)
	if langs["en"] {
		m.preset.SourceLanguage = "en" // Rails' default_locale
	}
	return m
}

// cutLast cuts s around the last sep.
func cutLast(s, sep string) (before, after string, found bool) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return s, "", false
}

var (
	i18nextFile   = regexp.MustCompile(`^(.*/)?locales/([^/]+)/(.+)\.json$`)
	i18nextSingle = regexp.MustCompile(`^(.*/)?locales/([^/]+)\.json$`)
	crowdinSource = regexp.MustCompile(`(?m)^\s*-?\s*"?source"?\s*:\s*["']?\S*?/locales/([^/]+)/`)
)

// detectI18next finds locales/<lang>/**/<ns>.json (public/locales/…
// as next-i18next keeps them) and locales/<lang>.json.
func detectI18next(t *tree) match {
	m := match{preset: Preset{Name: "i18next"}}
	type folder struct{ folders, nested, single bool }
	byRoot := map[string]*folder{}
	langs := map[string]bool{}
	for _, file := range t.files {
		if strings.HasSuffix(file, ".gotext.json") {
			continue
		}
		var root, lang string
		var nested, single bool
		if sm := i18nextFile.FindStringSubmatch(file); sm != nil {
			root, lang, nested = sm[1], sm[2], strings.Contains(sm[3], "/")
		} else if sm := i18nextSingle.FindStringSubmatch(file); sm != nil {
			root, lang, single = sm[1], sm[2], true
		} else {
			continue
		}
		if !languageName.MatchString(lang) {
			continue
		}
		f := byRoot[root]
		if f == nil {
			f = &folder{}
			byRoot[root] = f
		}
		f.folders = f.folders || !single
		f.nested = f.nested || nested
		f.single = f.single || single
		langs[lang] = true
		if m.file == "" {
			m.file = file
		}
	}
	if len(byRoot) > 1 {
		m.problem = several("locales folders", sortedKeys(byRoot))
		return m
	}
	for root, f := range byRoot {
		dir := root + "locales/"
		if f.folders {
			p := dir + "{language}/{namespace}.json"
			if f.nested {
				p = dir + "{language}/**/{namespace}.json"
			}
			m.preset.Groups = append(m.preset.Groups, locales.Group{Translation: p, DefaultName: "translation", Format: locales.JSON{}})
		}
		if f.single {
			m.preset.Groups = append(m.preset.Groups, locales.Group{Translation: dir + "{language}.json", Format: locales.JSON{}})
		}
		if data, err := t.read("crowdin.yml"); err == nil {
			if sm := crowdinSource.FindSubmatch(data); sm != nil && langs[string(sm[1])] {
				m.preset.SourceLanguage = string(sm[1])
			}
		}
	}
	m.languages = len(langs)
	return m
}

var propertiesPath = regexp.MustCompile(`^(.*/)?([A-Za-z][A-Za-z0-9]*)(?:_([A-Za-z]{2,3}(?:_[A-Za-z0-9]{2,8})*))?\.properties$`)

// detectProperties finds Java resource bundles: <base>_<locale>.properties
// beside <base>.properties, a group for each base, messages the default
// namespace (the only base too).
func detectProperties(t *tree) match {
	m := match{preset: Preset{Name: "properties"}}
	type bundle struct {
		dir    string
		source bool
		langs  map[string]bool
	}
	bundles := map[string]*bundle{} // dir + base -> bundle
	for _, sm := range t.matches(propertiesPath) {
		key := sm[1] + sm[2]
		b := bundles[key]
		if b == nil {
			b = &bundle{dir: sm[1], langs: map[string]bool{}}
			bundles[key] = b
		}
		if sm[3] == "" {
			b.source = true
		} else {
			b.langs[sm[3]] = true
		}
	}
	bases := map[string][]string{} // base -> folders
	for _, key := range sortedKeys(bundles) {
		b := bundles[key]
		if len(b.langs) == 0 {
			continue // application.properties, no bundle
		}
		base := strings.TrimPrefix(key, b.dir)
		bases[base] = append(bases[base], cmp.Or(strings.TrimSuffix(b.dir, "/"), "."))
		g := locales.Group{Translation: b.dir + base + "_{locale}.properties", Format: Properties{}}
		if b.source {
			g.Source = b.dir + base + ".properties"
		}
		n := len(b.langs)
		if b.source {
			n++
		}
		m.languages = max(m.languages, n)
		if m.file == "" || base == "messages" {
			m.file = cmp.Or(g.Source, b.dir+base+"_"+sortedKeys(b.langs)[0]+".properties")
		}
		m.preset.Groups = append(m.preset.Groups, g)
	}
	for _, base := range sortedKeys(bases) {
		if len(bases[base]) > 1 {
			m.problem = several(base+" bundles", bases[base])
		}
	}
	if len(m.preset.Groups) > 1 {
		for i, g := range m.preset.Groups {
			base := strings.TrimSuffix(path.Base(g.Translation), "_{locale}.properties")
			if base != "messages" {
				m.preset.Groups[i].Namespace = base
			}
		}
	}
	return m
}

var gotextPath = regexp.MustCompile(`^(.*/)?([^/]+)/messages\.gotext\.json$`)

// detectGoText finds x/text's <folder>/<lang>/messages.gotext.json.
func detectGoText(t *tree) match {
	m := match{preset: Preset{Name: "gotext"}}
	byRoot := map[string]int{}
	for file, sm := range t.matches(gotextPath) {
		if !languageName.MatchString(sm[2]) {
			continue
		}
		byRoot[sm[1]]++
		if m.file == "" {
			m.file = file
		}
	}
	if len(byRoot) > 1 {
		m.problem = several("messages.gotext.json files", sortedKeys(byRoot))
		return m
	}
	for root, n := range byRoot {
		m.languages = n
		m.preset.Groups = []locales.Group{{Translation: root + "{language}/messages.gotext.json", Format: GoText{}}}
	}
	return m
}

var (
	jsonSingle = regexp.MustCompile(`^([^/]+)\.json$`)
	jsonFolder = regexp.MustCompile(`^([^/]+)/(.+)\.json$`)
)

// detectJSON finds the service's own layouts at the tree's top:
// <lang>.json, or <lang>/<namespace>.json in folders that hold nothing
// but JSON (not src/ or app/, which a code name can look like).
func detectJSON(t *tree) match {
	m := match{preset: Preset{Name: "json"}}
	single, folders, other := map[string]bool{}, map[string]bool{}, map[string]bool{}
	nested := false
	for _, file := range t.files {
		top, _, inFolder := strings.Cut(file, "/")
		if inFolder && (!strings.HasSuffix(file, ".json") || strings.HasSuffix(file, ".gotext.json")) {
			other[top] = true
		}
	}
	for _, file := range t.files {
		if strings.HasSuffix(file, ".gotext.json") {
			continue
		}
		if sm := jsonSingle.FindStringSubmatch(file); sm != nil && languageName.MatchString(sm[1]) {
			single[sm[1]] = true
		} else if sm := jsonFolder.FindStringSubmatch(file); sm != nil && languageName.MatchString(sm[1]) && !other[sm[1]] {
			folders[sm[1]] = true
			nested = nested || strings.Contains(sm[2], "/")
		} else {
			continue
		}
		if m.file == "" {
			m.file = file
		}
	}
	if len(single) > 0 {
		m.preset.Groups = append(m.preset.Groups, locales.Group{Translation: "{language}.json", Format: locales.JSON{}})
	}
	if len(folders) > 0 {
		p := "{language}/{namespace}.json"
		if nested {
			p = "{language}/**/{namespace}.json"
		}
		m.preset.Groups = append(m.preset.Groups, locales.Group{Translation: p, Format: locales.JSON{}})
	}
	m.languages = max(len(single), len(folders))
	return m
}
