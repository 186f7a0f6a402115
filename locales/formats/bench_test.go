package formats_test

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/locsvc/partner-go/locales"
)

// benchSizes are the files' key counts: a ratio of 10 between their
// times per file says the work is linear in the keys.
var benchSizes = []int{4000, 40000}

// benchMessages returns n texts with Rails-like keys: 40 keys a group,
// 10 groups a section.
func benchMessages(n int) []locales.Message {
	msgs := make([]locales.Message, n)
	for i := range msgs {
		msgs[i] = locales.Message{
			Key:  fmt.Sprintf("section%03d.group%02d.key%05d", i/400, i/40%10, i),
			Text: fmt.Sprintf("Grüß dich, {0}: Text Nummer %d, mit Umlauten und einem Satz von etwa sechzig Zeichen.", i),
		}
	}
	return msgs
}

// benchProperties returns a .properties file of n keys as people write
// them: a comment every 40 keys, escapes, a continued line now and then.
func benchProperties(n int) []byte {
	var b bytes.Buffer
	for i, m := range benchMessages(n) {
		if i%40 == 0 {
			fmt.Fprintf(&b, "\n# Group %d\n", i/40)
		}
		text := strings.ReplaceAll(m.Text, "ü", `\u00fc`)
		if i%50 == 0 {
			text = strings.Replace(text, ", mit", ", \\\n    mit", 1)
		}
		fmt.Fprintf(&b, "%s = %s\n", m.Key, text)
	}
	return b.Bytes()
}
