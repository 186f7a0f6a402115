package partnertest

import (
	"cmp"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/locsvc/partner-go/translations"
)

// The CDN listener (HostCDN, at Server.CDNURL) serves what publishing
// shipped, without a token, as the service's public CDN does:
//
//	GET {CDNURL}/{org}/{project}/{locale}/translations.json   fileStructure single_file
//	GET {CDNURL}/{org}/{project}/{locale}/{namespace}.json    fileStructure namespaced_folders
//	GET {CDNURL}/{org}/{project}/manifest.json                the files, by language
//
// getProject's cdn object gives these URLs. A publish takes a snapshot
// of the project's published texts (every live key's source text, and
// each translation whose status is "published"), and the CDN serves it
// once the publish's sync job has completed; until then it serves the
// previous one. Every language is spelled as the service spells codes,
// in lowercase, the source language too ("pt-br/translations.json" of a
// project whose source is "pt-BR"). keyFormat flat writes keys whole,
// nested a level per dot; of a key that is also the parent of others
// (created with createKeys' force), the parent keeps its place and the
// keys below it are written whole beside it: {"a": "A", "a.b": "AB"}.
// How the service puts a namespace other than "default" in a single file
// is not documented: the fake writes its keys as "namespace:key"
// (i18next's namespace separator), which is how package locales reads
// them. Anything else answers 404 {"error":"Not found"}.

// cdnFiles is a snapshot of a project's CDN files, by path below
// {org}/{project}/.
type cdnFiles map[string][]byte

// cdnSnapshotLocked returns the CDN files of a project's published texts.
func (s *Server) cdnSnapshotLocked(p *Project, tp *tproject) cdnFiles {
	fileStructure, keyFormat := tp.fileLayout()
	type file = map[string]string // key -> text
	files := map[string]file{}
	add := func(lang, ns, key, text string) {
		path := lang + "/translations.json"
		if fileStructure == translations.NamespacedFolders {
			path = lang + "/" + ns + ".json"
		} else if ns != "default" {
			key = ns + ":" + key
		}
		if files[path] == nil {
			files[path] = file{}
		}
		files[path][key] = text
	}
	for _, k := range tp.liveKeys() {
		add(strings.ToLower(p.SourceLanguage), k.ns, k.name, k.src)
		for l, t := range k.tr {
			if t.status == "published" {
				add(l, k.ns, k.name, t.text)
			}
		}
	}
	out := cdnFiles{}
	manifest := map[string][]string{}
	for path, texts := range files {
		var v any = texts
		if keyFormat != translations.Flat {
			v = nest(texts)
		}
		b, _ := json.MarshalIndent(v, "", "  ") // maps of strings always marshal
		out[path] = append(b, '\n')
		lang, _, _ := strings.Cut(path, "/")
		manifest[lang] = append(manifest[lang], path)
	}
	b, _ := json.MarshalIndent(map[string]any{"files": manifest}, "", "  ")
	out["manifest.json"] = b
	return out
}

// nest writes dotted keys as nested objects. A key that is also the
// parent of others keeps its place, and the keys below it are written
// whole beside it: keys are taken in order, so a parent comes before
// the keys below it, whatever the map's order.
func nest(texts map[string]string) map[string]any {
	root := map[string]any{}
	for _, key := range slices.Sorted(maps.Keys(texts)) {
		text := texts[key]
		levels := strings.Split(key, ".")
		m := root
		ok := true
		for _, l := range levels[:len(levels)-1] {
			child, isMap := m[l].(map[string]any)
			if m[l] != nil && !isMap {
				ok = false
				break
			}
			if child == nil {
				child = map[string]any{}
				m[l] = child
			}
			m = child
		}
		last := levels[len(levels)-1]
		if _, taken := m[last]; !ok || taken {
			root[key] = text
			continue
		}
		m[last] = text
	}
	return root
}

// serveCDN serves the CDN listener.
func (c *call) serveCDN() {
	c.w.Header().Set("Access-Control-Allow-Origin", "*")
	if c.r.Method != http.MethodGet && c.r.Method != http.MethodHead {
		c.error(http.StatusMethodNotAllowed, "method_not_allowed", "the CDN serves GET")
		return
	}
	parts := strings.SplitN(strings.TrimPrefix(c.r.URL.Path, "/"), "/", 3)
	if len(parts) < 3 {
		c.json(http.StatusNotFound, map[string]string{"error": "Not found"})
		return
	}
	s := c.s
	s.mu.Lock()
	s.settleLocked(c.now)
	var data []byte
	for _, o := range s.orgs {
		if o.Slug != parts[0] {
			continue
		}
		for _, p := range o.projects {
			if p.Slug == parts[1] {
				data = s.tprojLocked(p).cdnFile(parts[2], c.now)
			}
		}
	}
	s.mu.Unlock()
	if data == nil {
		c.json(http.StatusNotFound, map[string]string{"error": "Not found"})
		return
	}
	c.w.Header().Set("Cache-Control", "public, max-age=60")
	c.write(http.StatusOK, "application/json", data)
}

// cdnFile returns a file of the latest completed publish, or nil.
func (tp *tproject) cdnFile(path string, now time.Time) []byte {
	for i := len(tp.syncs) - 1; i >= 0; i-- {
		if j := tp.syncs[i]; j.files != nil && j.state(now) == "completed" {
			return j.files[path]
		}
	}
	return nil
}

// fileLayout returns the project's fileStructure and keyFormat, the
// service's null read as its meaning.
func (tp *tproject) fileLayout() (translations.FileStructure, translations.KeyFormat) {
	return cmp.Or(tp.files, translations.SingleFile), cmp.Or(tp.keyFormat, translations.Nested)
}
