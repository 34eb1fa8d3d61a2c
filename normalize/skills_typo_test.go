package normalize

import (
	"os"
	"testing"

	"github.com/jobsd-dev/jobsd/normalize/fold"
	"github.com/stretchr/testify/assert"
)

// typoNormalizers are the normalizers the typo rule is checked with: the
// project's vocabularies, and with JOBSD_REFDATA also the skills reference
// data.
func typoNormalizers(t *testing.T) map[string]*Normalizer {
	out := map[string]*Normalizer{"hand": handNormalizer(t)}
	if os.Getenv("JOBSD_REFDATA") != "" {
		out["ref"] = refNormalizer(t)
	}
	return out
}

func TestSkillTypos(t *testing.T) {
	cases := []struct {
		give, canonical, umbrella string // canonical "" : no term
	}{
		// One edit from one term's spelling: read as that term.
		{"Javascirpt", "JavaScript", "JavaScript"},      // two letters swapped
		{"Kuberentes", "Kubernetes", "Kubernetes"},      // two letters swapped
		{"Teraform", "Terraform", "Terraform"},          // a letter missing
		{"Angluar", "Angular", "Angular"},               // two letters swapped
		{"Elasticsearhc", "Elasticsearch", ""},          // the last two swapped
		{"Typescirpt", "TypeScript", "TypeScript"},      // two letters swapped
		{"Djnago", "Django", "Python"},                  // umbrella of the term read
		{"Ansbile", "Ansible", "Ansible"},               // two letters swapped
		{"Svetle", "Svelte", "Svelte"},                  // six letters
		{"Kubernettes", "Kubernetes", "Kubernetes"},     // a letter too many
		{"Kubernetis", "Kubernetes", "Kubernetes"},      // a letter changed
		{"  KUBERENTES ", "Kubernetes", "Kubernetes"},   // case and spaces as any value
		{"Kuberentes 1.29", "Kubernetes", "Kubernetes"}, // with a version
		// Several terms one edit away (Express, Espresso): no answer.
		{"Espress", "", ""},
		// Shorter than six letters: never corrected.
		{"Pyton", "", ""},
		{"Dockr", "", ""},
		{"Rekat", "", ""},
		// The first letter is not corrected ("Mitigation" is no Litigation).
		{"Jubernetes", "", ""},
		// Two edits away.
		{"Kubrenetse", "", ""},
		// Long values and values of many words are no typos.
		{"Javascirpt and Kuberentes and Teraform", "", ""},
		// Digits and symbols tell terms apart.
		{"Angular5x", "", ""},
	}
	for name, n := range typoNormalizers(t) {
		for _, c := range cases {
			term, ok := n.Skills.Lookup(c.give)
			if c.canonical == "" {
				assert.False(t, ok, "%s: %q read as %v", name, c.give, term)
				assert.Equal(t, fold.Collapse(c.give), n.Skills.Canonical(c.give), "%s: Canonical(%q)", name, c.give)
				continue
			}
			if assert.True(t, ok, "%s: %q", name, c.give) {
				assert.Equal(t, c.canonical, term.Name, "%s: %q", name, c.give)
			}
			assert.Equal(t, c.canonical, n.Skills.Canonical(c.give), "%s: Canonical(%q)", name, c.give)
			umbrella := c.umbrella
			if umbrella == "" {
				umbrella = n.Skills.Umbrella(c.canonical)
			}
			assert.Equal(t, umbrella, n.Skills.Umbrella(c.give), "%s: Umbrella(%q)", name, c.give)
		}
		// A job's skills and a query's skills read typos the same way.
		assert.Equal(t, []string{"Kubernetes", "Django", "Python"}, n.Skills.WithUmbrellas([]string{"Kuberentes", "Djnago"}), name)
	}
}

// TestSkillTyposNotInText checks that free text is never corrected: a
// word one letter from a skill is most often another word.
func TestSkillTyposNotInText(t *testing.T) {
	for name, n := range typoNormalizers(t) {
		assert.Empty(t, n.Skills.FindIn("We run Kuberentes, Teraform and Javascirpt; Djnago too."), name)
		assert.Equal(t, []string{"Kubernetes", "Terraform"}, n.Skills.FindIn("We run Kubernetes and Terraform."), name)
	}
}

func TestFrontEndFrameworkAndUnixUmbrellas(t *testing.T) {
	cases := []struct {
		give, canonical, umbrella string
	}{
		// A component UI framework is its own umbrella, as React, Angular
		// and Vue.js are.
		{"Svelte", "Svelte", "Svelte"},
		{"SvelteKit", "SvelteKit", "Svelte"},
		{"emberjs", "Ember.js", "Ember.js"},
		{"solidjs", "Solid.js", "Solid.js"},
		{"Preact", "Preact", "Preact"},
		{"Qwik", "Qwik", "Qwik"},
		{"Lit", "Lit", "Lit"},
		{"Alpine.js", "Alpine.js", "Alpine.js"},
		{"Backbone.js", "Backbone.js", "Backbone.js"},
		{"Stencil", "Stencil", "Stencil"},
		{"Polymer", "Polymer", "Polymer"},
		{"React", "React", "React"},
		{"Vue", "Vue.js", "Vue.js"},
		// Libraries used from any JavaScript stay under it.
		{"jQuery", "jQuery", "JavaScript"},
		{"Lodash", "Lodash", "JavaScript"},
		{"RxJS", "RxJS", "JavaScript"},
		// Unix is not Linux; Unix systems are under Unix, BSDs under BSD,
		// Linux distributions under Linux.
		{"Unix", "Unix", "Unix"},
		{"UNIX", "Unix", "Unix"},
		{"unix administration", "Unix", "Unix"},
		{"Linux", "Linux", "Linux"},
		{"gnu/linux", "Linux", "Linux"},
		{"Ubuntu", "Ubuntu", "Linux"},
		{"Solaris", "Solaris", "Unix"},
		{"IBM AIX", "AIX", "Unix"},
		{"HP-UX", "HP-UX", "Unix"},
		{"FreeBSD", "FreeBSD", "BSD"},
		{"OpenBSD", "OpenBSD", "BSD"},
		{"BSD", "BSD", "BSD"},
		{"unix shell", "Shell", "Shell"},
	}
	for name, n := range typoNormalizers(t) {
		for _, c := range cases {
			assert.Equal(t, c.canonical, n.Skills.Canonical(c.give), "%s: Canonical(%q)", name, c.give)
			assert.Equal(t, c.umbrella, n.Skills.Umbrella(c.give), "%s: Umbrella(%q)", name, c.give)
		}
		assert.Equal(t, []string{"Ubuntu", "Linux"}, n.Skills.WithUmbrellas([]string{"Ubuntu"}), name)
		assert.Equal(t, []string{"Unix", "Linux"}, n.Skills.WithUmbrellas([]string{"Unix", "Linux"}), name)
		assert.Equal(t, []string{"SvelteKit", "Svelte"}, n.Skills.WithUmbrellas([]string{"SvelteKit"}), name)
		assert.Equal(t, []string{"Unix", "Linux"}, n.Skills.FindIn("Unix and Linux administration"), name)
	}
}

// BenchmarkSkillTypo reads values the vocabulary knows only by a typo, and
// values it does not know at all: the paths that run on a miss.
func BenchmarkSkillTypo(b *testing.B) {
	n := handNormalizer(b)
	if os.Getenv("JOBSD_REFDATA") != "" {
		n = refNormalizer(b)
	}
	words := []string{"Kuberentes", "Javascirpt", "Teraform", "Underwater basket weaving"}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		n.Skills.Lookup(words[i%len(words)])
	}
}
