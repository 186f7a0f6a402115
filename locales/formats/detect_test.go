package formats_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/formats"
)

// Small trees in each platform's shape. The files hold what detection
// reads (Android resources, a catalog's sourceLanguage, an XLIFF's
// source language, l10n.yaml); the rest are placeholders.
const (
	androidStrings = `<?xml version="1.0" encoding="utf-8"?>
<resources>
    <string name="app_name">Calculator</string>
</resources>
`
	androidArrays = `<resources><string-array name="modes"><item>Basic</item></string-array></resources>`
	androidDimens = `<resources><dimen name="pad">8dp</dimen></resources>`
	androidColors = `<resources><color name="accent">#ff0000</color></resources>`
)

// writeTree writes files (path -> content) under a new folder.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// detect detects the tree of files, and checks that its groups make a
// partner.yaml that reads back the same.
func detect(t *testing.T, files map[string]string) formats.Preset {
	t.Helper()
	p, err := formats.Detect(writeTree(t, files))
	if err != nil {
		t.Fatal(err)
	}
	roundTrip(t, p)
	return p
}

func wantPreset(t *testing.T, got, want formats.Preset) {
	t.Helper()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Detect (-want +got):\n%s", diff)
	}
}

// TestDetectAndroid: the res folder under the app module, a group for
// each resource file that holds strings (strings.xml the default
// namespace), not dimens.xml or colors.xml, nor a screen-width
// qualifier read as a language, nor donottranslate.xml.
func TestDetectAndroid(t *testing.T) {
	got := detect(t, map[string]string{
		"app/src/main/res/values/strings.xml":          androidStrings,
		"app/src/main/res/values/arrays.xml":           androidArrays,
		"app/src/main/res/values/dimens.xml":           androidDimens,
		"app/src/main/res/values/donottranslate.xml":   androidStrings,
		"app/src/main/res/values-night/colors.xml":     androidColors,
		"app/src/main/res/values-sw600dp/strings.xml":  androidStrings,
		"app/src/main/res/values-de/strings.xml":       androidStrings,
		"app/src/main/res/values-pt-rBR/strings.xml":   androidStrings,
		"app/src/main/res/values-b+sr+Latn/arrays.xml": androidArrays,
		"app/src/main/res/values-b+sr+Latn/colors.xml": androidColors,
		"app/src/main/AndroidManifest.xml":             "<manifest/>",
	})
	wantPreset(t, got, formats.Preset{Name: "android", Groups: []locales.Group{
		{Translation: "app/src/main/res/values-{android}/strings.xml", Source: "app/src/main/res/values/strings.xml", Format: formats.Android{}},
		{Translation: "app/src/main/res/values-{android}/arrays.xml", Source: "app/src/main/res/values/arrays.xml", Format: formats.Android{}, Namespace: "arrays"},
	}})
}

// TestDetectAppleStrings: the folder of the .lproj folders, the source
// in Base.lproj when it has tables, else en.lproj's.
func TestDetectAppleStrings(t *testing.T) {
	got := detect(t, map[string]string{
		"App/Base.lproj/Localizable.strings":  `"a" = "A";`,
		"App/Base.lproj/Main.storyboard":      "<document/>",
		"App/en.lproj/InfoPlist.strings":      `"a" = "A";`,
		"App/de.lproj/Localizable.strings":    `"a" = "A";`,
		"App/zh_CN.lproj/Localizable.strings": `"a" = "A";`,
		"App/zh-Hans.lproj/InfoPlist.strings": `"a" = "A";`,
	})
	wantPreset(t, got, formats.Preset{Name: "apple-strings", Groups: []locales.Group{{
		Translation: "App/{language}.lproj/{namespace}.strings", Source: "App/Base.lproj/{namespace}.strings",
		DefaultName: "Localizable", Format: formats.AppleStrings{},
	}}})

	got = detect(t, map[string]string{
		"en.lproj/Localizable.strings": `"a" = "A";`,
		"fr.lproj/Localizable.strings": `"a" = "A";`,
	})
	wantPreset(t, got, formats.Preset{Name: "apple-strings", SourceLanguage: "en", Groups: []locales.Group{{
		Translation: "{language}.lproj/{namespace}.strings", DefaultName: "Localizable", Format: formats.AppleStrings{},
	}}})
}

// TestDetectXCStrings: every catalog under the folder that holds them
// all, and the source language they name.
func TestDetectXCStrings(t *testing.T) {
	catalog := `{"sourceLanguage": "fr", "strings": {}, "version": "1.0"}`
	got := detect(t, map[string]string{
		"Sources/App/Localizable.xcstrings":  catalog,
		"Sources/Widget/Widget.xcstrings":    catalog,
		"Sources/InfoPlist.xcstrings":        catalog,
		"Sources/App/Base.lproj/Main.plist":  "",
		"Sources/App/AppDelegate.swift":      "",
		"Sources/App/Assets.xcassets/x.json": "{}",
	})
	wantPreset(t, got, formats.Preset{Name: "xcstrings", SourceLanguage: "fr", Groups: []locales.Group{{
		Translation: "Sources/**/{namespace}.xcstrings", DefaultName: "Localizable", Format: formats.XCStrings{},
	}}})
}

// TestDetectFlutter: l10n.yaml's arb-dir and template, else the ARB
// files' one folder and prefix (app_, intl_).
func TestDetectFlutter(t *testing.T) {
	got := detect(t, map[string]string{
		"l10n.yaml":                     "arb-dir: assets/l10n\ntemplate-arb-file: intl_en_US.arb\noutput-localization-file: l10n.dart\n",
		"assets/l10n/intl_en_US.arb":    "{}",
		"assets/l10n/intl_pt_BR.arb":    "{}",
		"assets/l10n/intl_sr_Latn.arb":  "{}",
		"assets/fonts/app_en.arb.notes": "",
	})
	wantPreset(t, got, formats.Preset{Name: "flutter", SourceLanguage: "en-US", Groups: []locales.Group{{
		Translation: "assets/l10n/intl_{locale}.arb", Format: formats.ARB{},
	}}})

	got = detect(t, map[string]string{
		"lib/l10n/app_en.arb":    "{}",
		"lib/l10n/app_de.arb":    "{}",
		"lib/l10n/app_zh_CN.arb": "{}",
	})
	wantPreset(t, got, formats.Preset{Name: "flutter", SourceLanguage: "en", Groups: []locales.Group{{
		Translation: "lib/l10n/app_{locale}.arb", Format: formats.ARB{},
	}}})
}

// TestDetectGettext: po/<locale>.po with the template as the source
// (sr@latin a locale), and locale/<lang>/LC_MESSAGES/<domain>.po.
func TestDetectGettext(t *testing.T) {
	got := detect(t, map[string]string{
		"po/LINGUAS":        "de\npt_BR\nsr@latin\n",
		"po/meson.build":    "i18n.gettext('app')\n",
		"po/app.pot":        "",
		"po/de.po":          "",
		"po/pt_BR.po":       "",
		"po/sr@latin.po":    "",
		"help/de/de.po":     "",
		"help/C/index.page": "",
	})
	wantPreset(t, got, formats.Preset{Name: "gettext", Groups: []locales.Group{{
		Translation: "po/{locale}.po", Source: "po/app.pot", Format: formats.PO{},
	}}})

	got = detect(t, map[string]string{
		"app/locale/app.pot":                  "",
		"app/locale/de/LC_MESSAGES/app.po":    "",
		"app/locale/pt_BR/LC_MESSAGES/app.po": "",
	})
	wantPreset(t, got, formats.Preset{Name: "gettext", Groups: []locales.Group{{
		Translation: "app/locale/{locale}/LC_MESSAGES/{namespace}.po", Source: "app/locale/{namespace}.pot",
		DefaultName: "app", Format: formats.PO{},
	}}})
}

// TestDetectAngular: messages.xlf wherever the tree keeps it, XLIFF 1.2
// and 2.0, with the source language it names.
func TestDetectAngular(t *testing.T) {
	got := detect(t, map[string]string{
		"angular.json":                  "{}",
		"src/locale/messages.xlf":       `<?xml version="1.0"?><xliff version="1.2"><file source-language="en-GB" datatype="plaintext"></file></xliff>`,
		"src/locale/messages.fr.xlf":    `<xliff version="1.2"/>`,
		"src/locale/messages.pt-BR.xlf": `<xliff version="1.2"/>`,
	})
	wantPreset(t, got, formats.Preset{Name: "angular", SourceLanguage: "en-GB", Groups: []locales.Group{{
		Translation: "src/locale/messages.{language}.xlf", Source: "src/locale/messages.xlf", Format: formats.XLIFF{},
	}}})

	got = detect(t, map[string]string{
		"projects/web/i18n/messages.xlf":    `<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="de"></xliff>`,
		"projects/web/i18n/messages.en.xlf": `<xliff version="2.0"/>`,
	})
	wantPreset(t, got, formats.Preset{Name: "angular", SourceLanguage: "de", Groups: []locales.Group{{
		Translation: "projects/web/i18n/messages.{language}.xlf", Source: "projects/web/i18n/messages.xlf", Format: formats.XLIFF{},
	}}})
}

// TestDetectRails: config/locales/<lang>.yml and
// config/locales/**/<name>.<lang>.yml, en the default source.
func TestDetectRails(t *testing.T) {
	got := detect(t, map[string]string{
		"config/locales/en.yml":                "en: {}\n",
		"config/locales/de.yml":                "de: {}\n",
		"config/locales/devise.en.yml":         "en: {}\n",
		"config/locales/models/user.pt-BR.yml": "pt-BR: {}\n",
		"config/application.yml":               "",
	})
	wantPreset(t, got, formats.Preset{Name: "rails", SourceLanguage: "en", Groups: []locales.Group{
		{Translation: "config/locales/**/{namespace}.{language}.yml", Format: formats.YAML{}},
		{Translation: "config/locales/{language}.yml", Format: formats.YAML{}},
	}})

	got = detect(t, map[string]string{
		"engine/config/locales/engine.fr.yml": "fr: {}\n",
		"engine/config/locales/engine.de.yml": "de: {}\n",
	})
	wantPreset(t, got, formats.Preset{Name: "rails", Groups: []locales.Group{
		{Translation: "engine/config/locales/{namespace}.{language}.yml", Format: formats.YAML{}},
	}})
}

// TestDetectI18next: locales/<lang>/**/<ns>.json where the tree keeps
// them (public/locales), with crowdin.yml's source language.
func TestDetectI18next(t *testing.T) {
	got := detect(t, map[string]string{
		"crowdin.yml":                           "files:\n  - source: /public/locales/de/**/*.json\n    translation: /public/locales/%two_letters_code%/**/%original_file_name%\n",
		"public/locales/de/common.json":         "{}",
		"public/locales/de/manage/users.json":   "{}",
		"public/locales/cn/common.json":         "{}",
		"public/locales/en/manage/users/x.json": "{}",
		"package.json":                          "{}",
	})
	wantPreset(t, got, formats.Preset{Name: "i18next", SourceLanguage: "de", Groups: []locales.Group{{
		Translation: "public/locales/{language}/**/{namespace}.json", DefaultName: "translation", Format: locales.JSON{},
	}}})

	got = detect(t, map[string]string{
		"src/locales/en/translation.json": "{}",
		"src/locales/fr/translation.json": "{}",
	})
	wantPreset(t, got, formats.Preset{Name: "i18next", Groups: []locales.Group{{
		Translation: "src/locales/{language}/{namespace}.json", DefaultName: "translation", Format: locales.JSON{},
	}}})
}

// TestDetectProperties: resource bundles where the tree keeps them,
// messages the default namespace, other bundles their own, and
// application.properties no bundle.
func TestDetectProperties(t *testing.T) {
	got := detect(t, map[string]string{
		"src/main/resources/application.properties":             "server.port=8080\n",
		"src/main/resources/messages/messages.properties":       "a=A\n",
		"src/main/resources/messages/messages_de.properties":    "a=A\n",
		"src/main/resources/messages/messages_pt_BR.properties": "a=A\n",
		"src/main/resources/ValidationMessages_de.properties":   "a=A\n",
	})
	wantPreset(t, got, formats.Preset{Name: "properties", Groups: []locales.Group{
		{Translation: "src/main/resources/ValidationMessages_{locale}.properties", Format: formats.Properties{}, Namespace: "ValidationMessages"},
		{Translation: "src/main/resources/messages/messages_{locale}.properties", Source: "src/main/resources/messages/messages.properties", Format: formats.Properties{}},
	}})
}

// TestDetectGoText: x/text's <folder>/<lang>/messages.gotext.json.
func TestDetectGoText(t *testing.T) {
	got := detect(t, map[string]string{
		"internal/locales/en/out.gotext.json":      "{}",
		"internal/locales/en/messages.gotext.json": "{}",
		"internal/locales/de/messages.gotext.json": "{}",
		"internal/catalog.go":                      "",
	})
	wantPreset(t, got, formats.Preset{Name: "gotext", Groups: []locales.Group{{
		Translation: "internal/locales/{language}/messages.gotext.json", Format: formats.GoText{},
	}}})
}

// TestDetectJSON: the service's own layouts at the tree's top.
func TestDetectJSON(t *testing.T) {
	got := detect(t, map[string]string{"en.json": "{}", "pt-BR.json": "{}"})
	wantPreset(t, got, formats.Preset{Name: "json", Groups: []locales.Group{{Translation: "{language}.json", Format: locales.JSON{}}}})

	got = detect(t, map[string]string{"en/common.json": "{}", "de/common.json": "{}"})
	wantPreset(t, got, formats.Preset{Name: "json", Groups: []locales.Group{{Translation: "{language}/{namespace}.json", Format: locales.JSON{}}}})
}

// detectProblems returns the problems of a tree Detect refuses.
func detectProblems(t *testing.T, files map[string]string) []locales.Problem {
	t.Helper()
	p, err := formats.Detect(writeTree(t, files))
	var ie *locales.InputError
	if !errors.As(err, &ie) {
		t.Fatalf("Detect = %+v, %v; want an *InputError", p, err)
	}
	return ie.Problems
}

func TestDetectRefusesATreeOfNoPlatform(t *testing.T) {
	ps := detectProblems(t, map[string]string{"README.md": "", "src/main.go": "", "res/values/dimens.xml": androidDimens})
	if len(ps) != 1 || !strings.Contains(ps[0].Message, "no locale files of a known platform") {
		t.Errorf("problems = %v", ps)
	}
}

// TestDetectRefusesSeveralPlatforms lists each platform found and a file
// of it.
func TestDetectRefusesSeveralPlatforms(t *testing.T) {
	ps := detectProblems(t, map[string]string{
		"config/locales/en.yml":   "en: {}\n",
		"config/locales/de.yml":   "de: {}\n",
		"app/locales/en/app.json": "{}",
		"app/locales/de/app.json": "{}",
		"app/locales/fr/app.json": "{}",
	})
	text := (&locales.InputError{Problems: ps}).Error()
	for _, want := range []string{"looks like rails (config/locales/{language}.yml)", "looks like i18next (app/locales/{language}/{namespace}.json)", "config/locales/", "app/locales/", "several platforms"} {
		if !strings.Contains(text, want) {
			t.Errorf("refusal lacks %q:\n%s", want, text)
		}
	}
}

// TestDetectRefusesFolderThatShareNamespaces: two folders of .lproj
// tables of the same name would be one namespace.
func TestDetectRefusesFoldersThatShareNamespaces(t *testing.T) {
	ps := detectProblems(t, map[string]string{
		"App/en.lproj/Localizable.strings":    "",
		"App/de.lproj/Localizable.strings":    "",
		"Widget/en.lproj/Localizable.strings": "",
		"Widget/de.lproj/Localizable.strings": "",
	})
	if len(ps) != 1 || !strings.Contains(ps[0].Message, "several folders (App, Widget)") {
		t.Errorf("problems = %v", ps)
	}
}

// TestDetectPrefersTheTranslatedPlatform: a React Native app's Android
// app_name, in the source language only, gives way to its i18next
// files.
func TestDetectPrefersTheTranslatedPlatform(t *testing.T) {
	got := detect(t, map[string]string{
		"android/app/src/main/res/values/strings.xml": androidStrings,
		"ios/App/en.lproj/InfoPlist.strings":          `"a" = "A";`,
		"src/i18n/locales/en/translation.json":        "{}",
		"src/i18n/locales/de/translation.json":        "{}",
	})
	if got.Name != "i18next" {
		t.Errorf("Detect = %+v, want i18next", got)
	}
}

// TestDetectFormatStillLooksTwoLevelsDown: the old detection by
// extension is unchanged.
func TestDetectFormatStillLooksTwoLevelsDown(t *testing.T) {
	dir := writeTree(t, map[string]string{"de/strings.xml": androidStrings, "deep/er/x.po": ""})
	f, err := formats.DetectFormat(dir, formats.All())
	if err != nil || f != (formats.Android{}) {
		t.Errorf("DetectFormat = %v, %v; want Android", f, err)
	}
}
