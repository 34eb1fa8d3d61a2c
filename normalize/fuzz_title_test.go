package normalize_test

import (
	"os"
	"strings"
	"testing"

	"github.com/jobsd-dev/jobsd/internal/refdatatest"
	"github.com/jobsd-dev/jobsd/normalize"
)

// FuzzTitle classifies any title without panicking, the same title always
// the same way, and idempotently: the canonical name of the result's most
// specific level classifies as the same category, and the Category*
// functions spell its members as they are.
func FuzzTitle(f *testing.F) {
	for _, seed := range []string{
		"Senior Backend Engineer (Remote)", "Sr. RN - ICU", "((((", "II III IV", "", "Engineer", "Chief Happiness Wizard",
		"Manager, Software Engineering", "RN - Med/Surg - Nights - $10k Sign-On", "Sofware Enginer", "Teacher",
		"CDL-A Truck Driver (OTR) - Home Weekly", "Computer Occupations, All Other", "Critical Care Nurses",
		"Data Scientist | Acme @ NYC", "\xff\xfe", "a-b/c (d) [e] {f}", "OR Nurse", "Software Engineer at Google",
		"Registered Nurse Manager", "Project Manager - Construction", "title title title title title title title title title title title",
	} {
		f.Add(seed)
	}
	ns := []*normalize.Normalizer{newNormalizer(f)}
	if os.Getenv("JOBSD_REFDATA") != "" { // set: the copy beside the repository is not looked for
		if dir := refdatatest.Find(refdatatest.Occupations); dir != "" {
			n, err := normalize.New(normalize.WithRefData(dir))
			if err != nil {
				f.Fatal(err)
			}
			ns = append(ns, n)
		}
	}
	f.Fuzz(func(t *testing.T, title string) {
		for _, n := range ns {
			c, ok := n.Title(title)
			again, okAgain := n.Title(title)
			if c != again || ok != okAgain {
				t.Fatalf("%q classified two ways", title)
			}
			if !ok {
				if c != (normalize.TitleCategory{}) {
					t.Fatalf("%q: not recognized, yet %+v", title, c)
				}
				continue
			}
			var name string
			switch c.Level {
			case normalize.LevelField:
				name = c.Field
			case normalize.LevelRole:
				name = c.Role
			case normalize.LevelSpecialization:
				name = c.Specialization
			default:
				t.Fatalf("%q: level %d", title, c.Level)
			}
			if name == "" || c.Field == "" || len(c.Code) != 7 || (c.Level == normalize.LevelField) != strings.HasSuffix(c.Code, "-0000") {
				t.Fatalf("%q: malformed %+v", title, c)
			}
			if back, ok := n.Title(name); !ok || back != c {
				t.Fatalf("%q gave %+v, whose name %q gives %+v", title, c, name, back)
			}
			if got := n.CategoryField(c.Field); got != c.Field {
				t.Fatalf("%q: field %q spelled %q", title, c.Field, got)
			}
			if c.Level >= normalize.LevelRole {
				if got := n.CategoryRole(c.Role); got != c.Role {
					t.Fatalf("%q: role %q spelled %q", title, c.Role, got)
				}
			}
			if c.Level == normalize.LevelSpecialization {
				if got := n.CategorySpecialization(c.Specialization); got != c.Specialization {
					t.Fatalf("%q: specialization %q spelled %q", title, c.Specialization, got)
				}
			}
		}
	})
}
