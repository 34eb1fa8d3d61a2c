package terms

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/refdatatest"
)

// typoVocabs are the skills vocabularies the typo rule is checked with:
// the project's, and with the reference data's skills too when there are
// some (JOBSD_REFDATA, else the copy beside the repository).
func typoVocabs(t *testing.T) map[string]*Vocab {
	t.Helper()
	load := func() *Vocab {
		v, err := Load(os.DirFS("../vocab"), "skills.json")
		require.NoError(t, err)
		return v
	}
	hand := load()
	hand.IndexTypos(nil)
	out := map[string]*Vocab{"hand": hand}
	if dir := refdatatest.Find("skills"); dir != "" {
		ref, tools := load(), load()
		found, err := AddSkillsRefData(dir, ref, tools)
		require.NoError(t, err)
		require.True(t, found)
		ref.IndexTypos(nil)
		out["ref"] = ref
	}
	return out
}

// TestSkillTyposKnownTermsStay checks that no spelling the skills
// vocabulary knows is corrected into another term: every name reads as
// its own term.
func TestSkillTyposKnownTermsStay(t *testing.T) {
	for name, skills := range typoVocabs(t) {
		for _, term := range skills.byName {
			got, ok := skills.Lookup(term.Name)
			require.True(t, ok, "%s: %q", name, term.Name)
			want, _ := skills.find(term.Name)
			assert.Same(t, want, got, "%s: %q", name, term.Name)
		}
		for _, s := range []string{"Svelte", "Solaris", "Packer", "Docker", "Jenkins", "Express", "Espresso"} {
			assert.Equal(t, s, skills.Canonical(s), name)
		}
	}
}

// TestSkillTyposRules checks the rule on a vocabulary of its own: one
// term one edit away, several, none of six letters, words of other
// vocabularies.
func TestSkillTyposRules(t *testing.T) {
	v := NewVocab([]Term{
		{Name: "Quorix"}, {Name: "Zentrox"}, {Name: "Zentrix"}, {Name: "Vulpa"},
		{Name: "Mardellin", Aliases: []string{"mardel"}},
	})
	v.derive = true
	v.IndexTypos(func(f string) bool { return f == "quorax" })
	cases := []struct {
		give, want string
	}{
		{"Qourix", "Quorix"},
		{"Quorixx", "Quorix"},
		{"Zentrax", ""}, // Zentrox and Zentrix: ambiguous
		{"Zentroxx", "Zentrox"},
		{"Vulpaa", ""}, // Vulpa has five letters
		{"Vlpa", ""},   // four letters
		{"quorax", ""}, // a word of another vocabulary
		{"Mardellinn", "Mardellin"},
		{"Mardek", ""}, // one edit from an alias only: the name is not near
		{"Uorix", ""},  // too short
		{"Xuorix", ""}, // the first letter changed
	}
	for _, c := range cases {
		term, ok := v.Lookup(c.give)
		if c.want == "" {
			assert.False(t, ok, "%q read as %v", c.give, term)
			continue
		}
		if assert.True(t, ok, c.give) {
			assert.Equal(t, c.want, term.Name, c.give)
		}
	}
	// An index of other spellings than the vocabulary's is not used.
	v.claim("quorixa", v.byName["Quorix"], false)
	_, ok := v.Lookup("Qourix")
	assert.False(t, ok, "stale index")
	v.IndexTypos(nil)
	_, ok = v.Lookup("Qourix")
	assert.True(t, ok)
}
