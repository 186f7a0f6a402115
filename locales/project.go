package locales

import (
	"context"
)

func (r client) project(ctx context.Context, project string) (*projectInfo, error) {
	p, err := r.c.Translations.GetProject(ctx, project)
	if err != nil {
		return nil, err
	}
	info := &projectInfo{source: p.SourceLanguage, targets: p.Languages,
		layout: Layout{Files: p.FileStructure(), Keys: p.KeyFormat()}}
	for l, c := range p.Coverage {
		if info.coverage == nil {
			info.coverage = map[string]int{}
		}
		info.coverage[languageKey(l)] = c.Translated
	}
	for _, ns := range p.Namespaces {
		info.namespaces = append(info.namespaces, ns.Name)
	}
	if p.CDN != nil {
		info.cdn = cdnInfo{base: p.CDN.BaseURL, pattern: p.CDN.Pattern}
	}
	if info.layout.check() != nil {
		info.layout = Layout{} // a layout this version does not know: the defaults
	}
	info.layout = info.layout.orDefault()
	return info, nil
}
