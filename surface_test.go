package partner_test

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestNoExportedFunctionTakesAnInternalType: no exported function or
// method of a public package takes or returns a type of an internal
// package, which a user could not name (or build).
func TestNoExportedFunctionTakesAnInternalType(t *testing.T) {
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "internal" || d.Name() == "testdata" || d.Name() == "examples" || strings.HasPrefix(d.Name(), ".")) && path != "." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, path, src, 0)
		if err != nil {
			return err
		}
		internal := map[string]bool{}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if strings.Contains(p, "/internal/") {
				name := p[strings.LastIndex(p, "/")+1:]
				if imp.Name != nil {
					name = imp.Name.Name
				}
				internal[name] = true
			}
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || !fn.Name.IsExported() || (fn.Recv != nil && !exportedRecv(fn.Recv)) {
				continue
			}
			checked++
			for _, list := range []*ast.FieldList{fn.Type.Params, fn.Type.Results} {
				if list == nil {
					continue
				}
				for _, field := range list.List {
					ast.Inspect(field.Type, func(n ast.Node) bool {
						if sel, ok := n.(*ast.SelectorExpr); ok {
							if id, ok := sel.X.(*ast.Ident); ok && internal[id.Name] {
								t.Errorf("%s: %s uses %s.%s, a type of an internal package", fset.Position(fn.Pos()), fn.Name.Name, id.Name, sel.Sel.Name)
							}
						}
						return true
					})
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 20 {
		t.Fatalf("checked only %d exported functions: is the walk broken?", checked)
	}
}

func exportedRecv(recv *ast.FieldList) bool {
	typ := recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	if idx, ok := typ.(*ast.IndexExpr); ok {
		typ = idx.X
	}
	id, ok := typ.(*ast.Ident)
	return ok && id.IsExported()
}

// TestErrorTypesShowWhole: go doc shows the error types a user branches
// on whole, fields and methods, as types of package partner: no exported
// type is an alias of a type the user cannot read.
func TestErrorTypesShowWhole(t *testing.T) {
	p := packageDoc(t)
	types := map[string]*doc.Type{}
	for _, typ := range p.Types {
		types[typ.Name] = typ
		if spec := typ.Decl.Specs[0].(*ast.TypeSpec); spec.Assign.IsValid() {
			t.Errorf("type %s is an alias: go doc shows neither its fields nor its methods", typ.Name)
		}
	}
	for name, want := range map[string][]string{
		"APIError":          {"Error", "Is", "Unwrap"},
		"MissingScopeError": {"Error", "Is", "Unwrap", "As"},
		"ToolError":         {"Error", "Is", "Unwrap", "As"},
	} {
		typ := types[name]
		if typ == nil {
			t.Errorf("package partner has no type %s", name)
			continue
		}
		if st, ok := typ.Decl.Specs[0].(*ast.TypeSpec).Type.(*ast.StructType); !ok || len(st.Fields.List) < 2 {
			t.Errorf("%s shows no fields", name)
		}
		var got []string
		for _, m := range typ.Methods {
			got = append(got, m.Name)
		}
		for _, m := range want {
			if !slices.Contains(got, m) {
				t.Errorf("go doc partner.%s shows methods %v, want %s among them", name, got, m)
			}
		}
	}
	if kinds := types["ToolErrorKind"]; kinds == nil || len(kinds.Consts) == 0 {
		t.Error("go doc partner.ToolErrorKind shows no kinds")
	}
}

// TestOptionsAreOneValue: a method of a service takes its options as one
// required struct whose zero value takes the defaults, never as a variadic
// argument of which only the first counts.
func TestOptionsAreOneValue(t *testing.T) {
	fset, files := parsePackage(t)
	checked := 0
	for _, f := range files {
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || !fn.Name.IsExported() || !exportedRecv(fn.Recv) {
				continue
			}
			checked++
			params := fn.Type.Params.List
			if len(params) == 0 {
				continue
			}
			last, ok := params[len(params)-1].Type.(*ast.Ellipsis)
			if !ok {
				continue
			}
			if sel, ok := last.Elt.(*ast.SelectorExpr); ok && strings.HasSuffix(sel.Sel.Name, "Options") {
				t.Errorf("%s: %s takes ...%s: take one %s (its zero value for the defaults)", fset.Position(fn.Pos()), fn.Name.Name, sel.Sel.Name, sel.Sel.Name)
			}
		}
	}
	if checked < 20 {
		t.Fatalf("checked only %d methods: is the walk broken?", checked)
	}
}

// TestNoGoStringBesideFormat: fmt never calls GoString on a type with a
// Format method, so such a GoString is dead code.
func TestNoGoStringBesideFormat(t *testing.T) {
	for _, typ := range packageDoc(t).Types {
		var names []string
		for _, m := range typ.Methods {
			names = append(names, m.Name)
		}
		if slices.Contains(names, "Format") && slices.Contains(names, "GoString") {
			t.Errorf("%s has both Format and GoString; GoString never runs", typ.Name)
		}
	}
}

// parsePackage parses package partner's non-test files, with comments.
func parsePackage(t *testing.T) (*token.FileSet, []*ast.File) {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return fset, files
}

// packageDoc is package partner's documentation, as go doc reads it.
func packageDoc(t *testing.T) *doc.Package {
	t.Helper()
	fset, files := parsePackage(t)
	p, err := doc.NewFromFiles(fset, files, "github.com/locsvc/partner-go")
	if err != nil {
		t.Fatal(err)
	}
	return p
}
