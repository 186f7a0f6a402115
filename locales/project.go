package locales

import (
	"context"

	partner "github.com/locsvc/partner-go"
)

// getProjectWire is the part of getProject's answer a sync reads.
type getProjectWire struct {
	SL  string   `json:"sl"`
	Lng []string `json:"lng"`
	NSS []struct {
		NM string `json:"nm"`
	} `json:"nss"`
	CDN *struct {
		Base string `json:"base"`
		Pat  string `json:"pat"`
		FS   string `json:"fs"`
		KF   string `json:"kf"`
	} `json:"cdn"`
}

func (r client) project(ctx context.Context, project string) (*projectInfo, error) {
	var w getProjectWire
	if err := r.c.Tools.Call(ctx, partner.TranslationTools, "getProject", map[string]any{"project": project}, &w); err != nil {
		return nil, err
	}
	p := &projectInfo{source: w.SL, targets: w.Lng}
	for _, ns := range w.NSS {
		p.namespaces = append(p.namespaces, ns.NM)
	}
	if w.CDN != nil {
		p.layout = Layout{Files: FileStructure(w.CDN.FS), Keys: KeyFormat(w.CDN.KF)}
		p.cdn = cdnInfo{base: w.CDN.Base, pattern: w.CDN.Pat}
	}
	if p.layout.check() != nil {
		p.layout = Layout{}
	}
	p.layout = p.layout.orDefault()
	return p, nil
}
