package main

import "testing"

// CLDR rules become gettext forms for integer counts: categories only
// fractions reach have no form, a "many" only round millions reach has
// none either, and two-form rules read as gettext's own spelling.
func TestConvert(t *testing.T) {
	millions := "e = 0 and i != 0 and i % 1000000 = 0 and v = 0 or e != 0..5 @integer 1000000"
	for _, c := range []struct {
		name  string
		rules map[string]string
		upTo  uint64
		want  forms
	}{
		{"German", map[string]string{"pluralRule-count-one": "i = 1 and v = 0 @integer 1", "pluralRule-count-other": " @integer 0, 2~16"}, 20_000,
			forms{"nplurals=2; plural=(n != 1);", "one other"}},
		{"French", map[string]string{"pluralRule-count-one": "i = 0,1 @integer 0, 1", "pluralRule-count-many": millions, "pluralRule-count-other": " @integer 2~17"}, 1_000_001,
			forms{"nplurals=2; plural=(n > 1);", "one other"}},
		{"Russian", map[string]string{
			"pluralRule-count-one":   "v = 0 and i % 10 = 1 and i % 100 != 11 @integer 1, 21",
			"pluralRule-count-few":   "v = 0 and i % 10 = 2..4 and i % 100 != 12..14 @integer 2~4",
			"pluralRule-count-many":  "v = 0 and i % 10 = 0 or v = 0 and i % 10 = 5..9 or v = 0 and i % 100 = 11..14 @integer 0, 5~19",
			"pluralRule-count-other": "   @decimal 0.0~1.5"}, 20_000,
			forms{"nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<12 || n%100>14) ? 1 : 2);", "one few many"}},
		{"Japanese", map[string]string{"pluralRule-count-other": " @integer 0~15"}, 20_000, forms{"nplurals=1; plural=0;", "other"}},
	} {
		got, err := convert(c.rules, c.upTo)
		if err != nil || got != c.want {
			t.Errorf("%s: got %+v, %v; want %+v", c.name, got, err, c.want)
		}
	}
	if _, err := convert(map[string]string{"pluralRule-count-one": "x = 1"}, 100); err == nil {
		t.Error("an unknown operand was read")
	}
}
