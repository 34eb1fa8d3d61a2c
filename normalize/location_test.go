package normalize

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/internal/refdatatest"
	"github.com/jobsd-dev/jobsd/normalize/places"
)

// placesOf reads "City|State|Country; ..." as places.
func placesOf(s string) []Place {
	var out []Place
	for p := range strings.SplitSeq(s, ";") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		f := strings.Split(p, "|")
		out = append(out, Place{City: f[0], State: f[1], Country: f[2]})
	}
	return out
}

// locationCase is location text and the places a job at it is stored with
// (the state and country a city implies added) and the arrangement it
// states. plain, when set, is what the curated vocabularies alone give
// (without reference data).
type locationCase struct {
	give, want, arrangement string
	plain                   string
}

const (
	wantUS = "United States"
	wantUK = "United Kingdom"
)

var locationCases = []locationCase{
	// United States: abbreviations, case, commas, postal codes, saints and forts.
	{give: "Austin, TX", want: "Austin|Texas|" + wantUS},
	{give: "Austin TX", want: "Austin|Texas|" + wantUS},
	{give: "austin, tx", want: "Austin|Texas|" + wantUS},
	{give: "AUSTIN, TX 78701", want: "Austin|Texas|" + wantUS},
	{give: "123 Main St, Austin, TX 78701", want: "Austin|Texas|" + wantUS},
	{give: "San Francisco, CA 94105", want: "San Francisco|California|" + wantUS},
	{give: "San Francisco, California, United States", want: "San Francisco|California|" + wantUS},
	{give: "US-CA-San Francisco", want: "San Francisco|California|" + wantUS},
	{give: "New York, NY 10001", want: "New York|New York|" + wantUS},
	{give: "Brooklyn, NY", want: "New York|New York|" + wantUS},
	{give: "Queens, NY", want: "New York|New York|" + wantUS},
	{give: "Chicago, IL (Loop)", want: "Chicago|Illinois|" + wantUS},
	{give: "Dallas, TX (DFW)", want: "Dallas|Texas|" + wantUS},
	{give: "Southern California", want: "|California|" + wantUS},
	{give: "New York", want: "New York|New York|" + wantUS},
	{give: "Ft. Worth, TX", want: "Fort Worth|Texas|" + wantUS},
	{give: "St. Louis, MO", want: "St. Louis|Missouri|" + wantUS},
	{give: "Saint Louis, Missouri", want: "St. Louis|Missouri|" + wantUS},
	{give: "St Paul MN", want: "Saint Paul|Minnesota|" + wantUS},
	{give: "Santa Monica CA", want: "Santa Monica|California|" + wantUS},
	{give: "Salt Lake City UT", want: "Salt Lake City|Utah|" + wantUS},
	{give: "Kansas City, MO", want: "Kansas City|Missouri|" + wantUS},
	{give: "Cambridge, MA", want: "Cambridge|Massachusetts|" + wantUS},
	{give: "Portland", want: "Portland|Oregon|" + wantUS},
	{give: "Portland, ME", want: "Portland|Maine|" + wantUS},
	{give: "Springfield, MA", want: "Springfield|Massachusetts|" + wantUS},
	{give: "Columbus, IN", want: "Columbus|Indiana|" + wantUS},
	{give: "Dover, DE", want: "Dover|Delaware|" + wantUS},
	{give: "Boise, ID", want: "Boise|Idaho|" + wantUS},
	{give: "Wilkes-Barre, PA", want: "Wilkes-Barre|Pennsylvania|" + wantUS},
	{give: "Coeur d'Alene, ID", want: "Coeur d'Alene|Idaho|" + wantUS},
	{give: "Melbourne, FL", want: "Melbourne|Florida|" + wantUS},
	{give: "Seattle, Washington", want: "Seattle|Washington|" + wantUS},
	{give: "Atlanta, Georgia", want: "Atlanta|Georgia|" + wantUS},
	{give: "Washington, D.C.", want: "Washington|District of Columbia|" + wantUS},
	{give: "Washington", want: "|Washington|" + wantUS},
	{give: "Texas", want: "|Texas|" + wantUS},
	{give: "CA", want: "|California|" + wantUS},
	{give: "IN", want: "|Indiana|" + wantUS},
	{give: "Georgia", want: "|Georgia|" + wantUS},
	{give: "California, United States", want: "|California|" + wantUS},
	// Metro names.
	{give: "SF", want: "San Francisco|California|" + wantUS},
	{give: "Bay Area", want: "San Francisco|California|" + wantUS},
	{give: "SF Bay Area", want: "San Francisco|California|" + wantUS},
	{give: "Silicon Valley", want: "San Jose|California|" + wantUS},
	{give: "NYC", want: "New York|New York|" + wantUS},
	{give: "New York City Metropolitan Area", want: "New York|New York|" + wantUS},
	{give: "LA", want: "Los Angeles|California|" + wantUS},
	{give: "DFW", want: "Dallas|Texas|" + wantUS},
	{give: "Dallas-Fort Worth Metroplex", want: "Dallas|Texas|" + wantUS},
	{give: "DMV", want: "Washington|District of Columbia|" + wantUS},
	{give: "Washington DC-Baltimore Area", want: "Washington|District of Columbia|" + wantUS},
	{give: "Philly", want: "Philadelphia|Pennsylvania|" + wantUS},
	{give: "ATL", want: "Atlanta|Georgia|" + wantUS},
	{give: "Chi-town", want: "Chicago|Illinois|" + wantUS},
	{give: "Twin Cities", want: "Minneapolis|Minnesota|" + wantUS},
	{give: "Research Triangle", want: "Raleigh|North Carolina|" + wantUS},
	{give: "RTP", want: "Raleigh|North Carolina|" + wantUS},
	{give: "Greater Boston", want: "Boston|Massachusetts|" + wantUS},
	{give: "Greater Seattle Area", want: "Seattle|Washington|" + wantUS},
	{give: "Puget Sound", want: "Seattle|Washington|" + wantUS},
	// Canada.
	{give: "Toronto, ON", want: "Toronto|Ontario|Canada"},
	{give: "Toronto, Ontario, Canada", want: "Toronto|Ontario|Canada"},
	{give: "GTA", want: "Toronto|Ontario|Canada"},
	{give: "Montréal, QC", want: "Montreal|Quebec|Canada"},
	{give: "Montreal", want: "Montreal|Quebec|Canada"},
	{give: "Vancouver, BC", want: "Vancouver|British Columbia|Canada"},
	{give: "Vancouver, CA", want: "Vancouver|British Columbia|Canada"},
	{give: "London, ON", want: "London|Ontario|Canada"},
	{give: "Calgary AB", want: "Calgary|Alberta|Canada"},
	{give: "Quebec", want: "|Quebec|Canada"},
	{give: "Quebec City", want: "Quebec City|Quebec|Canada"},
	{give: "Halifax, NS", want: "Halifax|Nova Scotia|Canada"},
	// Europe.
	{give: "London", want: "London|England|" + wantUK},
	{give: "London, UK", want: "London|England|" + wantUK},
	{give: "London, England, United Kingdom", want: "London|England|" + wantUK},
	{give: "Greater London", want: "London|England|" + wantUK},
	{give: "Cambridge, UK", want: "Cambridge|England|" + wantUK},
	{give: "Edinburgh, Scotland", want: "Edinburgh|Scotland|" + wantUK},
	{give: "England", want: "|England|" + wantUK},
	{give: "Belfast, NI", want: "Belfast|Northern Ireland|" + wantUK},
	{give: "Dublin, Ireland", want: "Dublin|Leinster|Ireland", plain: "Dublin||Ireland"},
	{give: "Berlin, Germany", want: "Berlin|Berlin|Germany"},
	{give: "Berlin Germany", want: "Berlin|Berlin|Germany"},
	{give: "Berlin, DE", want: "Berlin|Berlin|Germany"},
	{give: "10115 Berlin", want: "Berlin|Berlin|Germany"},
	{give: "München, Deutschland", want: "Munich|Bavaria|Germany"},
	{give: "Munich, Bavaria", want: "Munich|Bavaria|Germany"},
	{give: "Duesseldorf", want: "Düsseldorf|North Rhine-Westphalia|Germany"},
	{give: "Dusseldorf, Germany", want: "Düsseldorf|North Rhine-Westphalia|Germany"},
	{give: "Köln", want: "Cologne|North Rhine-Westphalia|Germany"},
	{give: "Frankfurt am Main", want: "Frankfurt|Hesse|Germany"},
	{give: "Paris, France", want: "Paris|Île-de-France|France"},
	{give: "Lyon, France", want: "Lyon|Auvergne-Rhône-Alpes|France"},
	{give: "Amsterdam, NL", want: "Amsterdam|North Holland|Netherlands"},
	{give: "Amsterdam, Holland", want: "Amsterdam|North Holland|Netherlands"},
	{give: "The Hague", want: "The Hague|South Holland|Netherlands"},
	{give: "Zurich", want: "Zurich|Zurich|Switzerland"},
	{give: "Zürich, Switzerland", want: "Zurich|Zurich|Switzerland"},
	{give: "Geneva, CH", want: "Geneva|Geneva|Switzerland"},
	{give: "Wien, Österreich", want: "Vienna|Vienna|Austria"},
	{give: "Madrid, Spain", want: "Madrid|Community of Madrid|Spain"},
	{give: "Barcelona, Catalonia", want: "Barcelona|Catalonia|Spain"},
	{give: "Milan, Italy", want: "Milan|Lombardy|Italy"},
	{give: "Lisboa", want: "Lisbon|Lisbon|Portugal", plain: "Lisbon||Portugal"},
	{give: "Warsaw, Poland", want: "Warsaw|Mazovia|Poland", plain: "Warsaw||Poland"},
	{give: "Krakow", want: "Kraków|Lesser Poland|Poland", plain: "Kraków||Poland"},
	{give: "Prague, Czech Republic", want: "Prague|Prague|Czechia", plain: "Prague||Czechia"},
	{give: "Reading, Berkshire, UK", want: "Reading|England|" + wantUK},
	{give: "Krefeld, Germany", want: "Krefeld|North Rhine-Westphalia|Germany", plain: "Krefeld||Germany"},
	{give: "Berlin (Mitte)", want: "Berlin|Berlin|Germany"},
	{give: "Kraków, Małopolskie", want: "Kraków|Lesser Poland|Poland", plain: "Kraków||Poland"},
	{give: "Dublin 2, Ireland", want: "Dublin|Leinster|Ireland", plain: "Dublin||Ireland"},
	// India.
	{give: "Bangalore", want: "Bengaluru|Karnataka|India"},
	{give: "Bengaluru, KA, IN", want: "Bengaluru|Karnataka|India"},
	{give: "Hyderabad, IN", want: "Hyderabad|Telangana|India"},
	{give: "Gurgaon, Haryana", want: "Gurugram|Haryana|India"},
	{give: "Noida, UP, India", want: "Noida|Uttar Pradesh|India"},
	{give: "Mumbai, MH", want: "Mumbai|Maharashtra|India"},
	{give: "Delhi NCR", want: "Delhi|Delhi|India"},
	{give: "New Delhi, Delhi, India", want: "New Delhi|Delhi|India"},
	{give: "Chennai, Tamil Nadu", want: "Chennai|Tamil Nadu|India"},
	{give: "Chennai, TN", want: "Chennai|Tamil Nadu|India"},
	{give: "Hyderabad, TS", want: "Hyderabad|Telangana|India"},
	{give: "Remote, India", want: "||India", arrangement: "remote"},
	// Latin America.
	{give: "Sao Paulo", want: "São Paulo|São Paulo|Brazil"},
	{give: "São Paulo, SP", want: "São Paulo|São Paulo|Brazil"},
	{give: "Rio de Janeiro, RJ, Brazil", want: "Rio de Janeiro|Rio de Janeiro|Brazil"},
	{give: "Mexico City", want: "Mexico City|Mexico City|Mexico"},
	{give: "CDMX", want: "Mexico City|Mexico City|Mexico"},
	{give: "Monterrey, N.L.", want: "Monterrey|Nuevo León|Mexico"},
	{give: "Guadalajara, Jalisco, Mexico", want: "Guadalajara|Jalisco|Mexico"},
	{give: "Mexico", want: "||Mexico"},
	{give: "Buenos Aires, Argentina", want: "Buenos Aires|Autonomous City of Buenos Aires|Argentina"},
	{give: "Bogota D.C.", want: "Bogotá|Bogotá|Colombia"},
	{give: "Medellin", want: "Medellín|Antioquia|Colombia"},
	{give: "Santiago, Chile", want: "Santiago|Santiago Metropolitan|Chile", plain: "Santiago||Chile"},
	{give: "Toluca, Mexico", want: "Toluca|State of Mexico|Mexico", plain: "Toluca||Mexico"},
	// Asia-Pacific, Middle East, Africa.
	{give: "Singapore", want: "Singapore||Singapore"},
	{give: "Tokyo, Japan", want: "Tokyo|Tokyo|Japan"},
	{give: "Seoul, South Korea", want: "Seoul|Seoul|Republic of Korea", plain: "Seoul||Republic of Korea"},
	{give: "Sydney, NSW", want: "Sydney|New South Wales|Australia"},
	{give: "Melbourne, VIC, Australia", want: "Melbourne|Victoria|Australia"},
	{give: "Perth, WA", want: "Perth|Western Australia|Australia"},
	{give: "Hong Kong", want: "Hong Kong||Hong Kong (Special Administrative Region of China)"},
	{give: "Shanghai, China", want: "Shanghai|Shanghai|China", plain: "Shanghai||China"},
	{give: "Kuala Lumpur, Malaysia", want: "Kuala Lumpur|Kuala Lumpur|Malaysia"},
	{give: "Auckland, NZ", want: "Auckland|Auckland|New Zealand", plain: "Auckland||New Zealand"},
	{give: "Dubai, UAE", want: "Dubai|Dubai|United Arab Emirates", plain: "Dubai||United Arab Emirates"},
	{give: "Tel Aviv-Yafo, Israel", want: "Tel Aviv|Tel Aviv|Israel", plain: "Tel Aviv||Israel"},
	{give: "Lagos, Nigeria", want: "Lagos|Lagos|Nigeria"},
	{give: "Cape Town, South Africa", want: "Cape Town|Western Cape|South Africa"},
	{give: "Johannesburg, GP", want: "Johannesburg|Gauteng|South Africa"},
	{give: "Nairobi", want: "Nairobi|Nairobi County|Kenya", plain: "Nairobi||Kenya"},
	{give: "Tbilisi, Georgia", want: "Tbilisi|Tbilisi|Georgia", plain: "Tbilisi||Georgia"},
	{give: "Da Nang, Vietnam", want: "Da Nang|Da Nang City|Vietnam", plain: "Da Nang||Vietnam"},
	// Several places, and none.
	{give: "San Francisco, CA; New York, NY", want: "San Francisco|California|" + wantUS + "; New York|New York|" + wantUS},
	{give: "New York, San Francisco", want: "New York|New York|" + wantUS + "; San Francisco|California|" + wantUS},
	{give: "Boston, New York", want: "Boston|Massachusetts|" + wantUS + "; New York|New York|" + wantUS},
	{give: "Austin and Dallas", want: "Austin|Texas|" + wantUS + "; Dallas|Texas|" + wantUS},
	{give: "Boston, MA & New York, NY", want: "Boston|Massachusetts|" + wantUS + "; New York|New York|" + wantUS},
	{give: "Seattle / Portland", want: "Seattle|Washington|" + wantUS + "; Portland|Oregon|" + wantUS},
	{give: "Toronto, ON; Vancouver, BC", want: "Toronto|Ontario|Canada; Vancouver|British Columbia|Canada"},
	{give: "San Francisco, New York, London", want: "San Francisco|California|" + wantUS + "; New York|New York|" + wantUS + "; London|England|" + wantUK},
	{give: "US or Canada", want: "||" + wantUS + "; ||Canada"},
	{give: "Dallas/Fort Worth", want: "Dallas|Texas|" + wantUS},
	{give: "Trinidad and Tobago", want: "||Trinidad and Tobago"},
	{give: "Newfoundland and Labrador", want: "|Newfoundland and Labrador|Canada"},
	{give: "Multiple Locations", want: ""},
	{give: "Various", want: ""},
	{give: "5 locations", want: ""},
	// Remote, hybrid and on-site.
	{give: "Remote", want: "", arrangement: "remote"},
	{give: "Remote - US", want: "||" + wantUS, arrangement: "remote"},
	{give: "Remote in USA", want: "||" + wantUS, arrangement: "remote"},
	{give: "REMOTE IN USA", want: "||" + wantUS, arrangement: "remote"},
	{give: "US-Remote", want: "||" + wantUS, arrangement: "remote"},
	{give: "Remote (Canada)", want: "||Canada", arrangement: "remote"},
	{give: "Remote - Canada (Toronto)", want: "Toronto|Ontario|Canada", arrangement: "remote"},
	{give: "Remote, but must be in EST", want: "", arrangement: "remote"},
	{give: "Anywhere in the US", want: "||" + wantUS, arrangement: "remote"},
	{give: "Anywhere", want: "", arrangement: "remote"},
	{give: "Worldwide", want: "", arrangement: "remote"},
	{give: "Remote, EMEA", want: "", arrangement: "remote"},
	{give: "Remote - Europe", want: "", arrangement: "remote"},
	{give: "Remote, US (Eastern Time Zone)", want: "||" + wantUS, arrangement: "remote"},
	{give: "Remote - US & Canada", want: "||" + wantUS + "; ||Canada", arrangement: "remote"},
	{give: "Home based - UK", want: "||" + wantUK, arrangement: "remote"},
	{give: "Work from home", want: "", arrangement: "remote"},
	{give: "NYC | SF | Remote", want: "New York|New York|" + wantUS + "; San Francisco|California|" + wantUS, arrangement: "remote"},
	{give: "Hybrid - Austin", want: "Austin|Texas|" + wantUS, arrangement: "hybrid"},
	{give: "Austin, TX (Hybrid)", want: "Austin|Texas|" + wantUS, arrangement: "hybrid"},
	{give: "Hybrid (Seattle, WA)", want: "Seattle|Washington|" + wantUS, arrangement: "hybrid"},
	{give: "On-site in Boston", want: "Boston|Massachusetts|" + wantUS, arrangement: "onsite"},
	{give: "Onsite - Redmond, WA", want: "Redmond|Washington|" + wantUS, arrangement: "onsite"},
	// Schedules are no places.
	{give: "Hybrid - Denver, CO (3 days/week in office)", want: "Denver|Colorado|" + wantUS, arrangement: "hybrid"},
	{give: "Boston, MA (Mon-Fri)", want: "Boston|Massachusetts|" + wantUS},
	{give: "Denver, CO (Tue-Thu in office)", want: "Denver|Colorado|" + wantUS, arrangement: "onsite"},
	{give: "Remote (4 days a week)", want: "", arrangement: "remote"},
	{give: "Chicago, IL - 25% travel", want: "Chicago|Illinois|" + wantUS},
	{give: "Miami, FL (100% remote)", want: "Miami|Florida|" + wantUS, arrangement: "remote"},
	{give: "Monroe, LA", want: "Monroe|Louisiana|" + wantUS},
}

// TestLocations reads the table with the curated vocabularies, and with
// reference data when JOBSD_REFDATA names it, and logs each one's
// accuracy.
func TestLocations(t *testing.T) {
	type setup struct {
		name string
		n    *Normalizer
		ref  bool
	}
	setups := []setup{{"curated", newLocNormalizer(t), false}}
	if dir := refdatatest.Find(refdatatest.Cities); dir != "" {
		n, err := New(WithRefData(dir))
		require.NoError(t, err)
		setups = append(setups, setup{"refdata", n, true})
	} else {
		t.Log("no reference data (JOBSD_REFDATA, or ../shared/data beside the repository): the table is read with the curated vocabularies only")
	}
	for _, s := range setups {
		right, total := 0, 0
		t.Run(s.name, func(t *testing.T) {
			for _, tt := range locationCases {
				want := tt.want
				if !s.ref && tt.plain != "" {
					want = tt.plain
				}
				total++
				ok := t.Run(tt.give, func(t *testing.T) {
					got := s.n.ParseLocation(tt.give)
					var stored []Place
					for _, p := range got.Places {
						stored = append(stored, storedPlace(t, s.n, p))
					}
					assert.Equal(t, placesOf(want), stored, "places")
					assert.Equal(t, tt.arrangement, arrangementOf(got), "arrangement")
					checkLocationIdempotent(t, s.n, tt.give)
				})
				if ok {
					right++
				}
			}
		})
		t.Logf("%s: %d of %d location texts read right (%.1f%%)", s.name, right, total, 100*float64(right)/float64(total))
	}
}

// storedPlace returns the place a job at p is stored with.
func storedPlace(t *testing.T, n *Normalizer, p Place) Place {
	t.Helper()
	rec, err := n.Job(domain.Job{ID: "t-1", Title: "Engineer", Company: "Co",
		Location: domain.Location{City: []string{p.City}, State: []string{p.State}, Country: []string{p.Country}}})
	require.NoError(t, err)
	l := rec.Location
	first := func(list []string) string {
		if len(list) == 0 {
			return ""
		}
		return list[0]
	}
	return Place{City: first(l.City), State: first(l.State), Country: first(l.Country)}
}

func arrangementOf(l ParsedLocation) string {
	switch {
	case l.Remote:
		return "remote"
	case l.Hybrid:
		return "hybrid"
	case l.Onsite:
		return "onsite"
	}
	return ""
}

// TestLocationFunctions covers City, State and Country on their own.
func TestLocationFunctions(t *testing.T) {
	n := newLocNormalizer(t)
	for give, want := range map[string]string{"sf": "San Francisco", "Montréal": "Montreal", "Bombay": "Mumbai",
		"Austin, TX": "Austin", "Duesseldorf": "Düsseldorf", "Sao Paulo": "São Paulo", "Smallville": "Smallville"} {
		assert.Equal(t, want, n.City(give), give)
	}
	for give, want := range map[string]string{"CA": "California", "tx": "Texas", "ON": "Ontario", "Bayern": "Bavaria",
		"NSW": "New South Wales", "Calif.": "California", "England": "England", "Yukon Territory": "Yukon"} {
		assert.Equal(t, want, n.State(give), give)
	}
	for give, want := range map[string]string{"USA": "United States", "U.S.A.": "United States", "America": "United States",
		"UK": "United Kingdom", "Great Britain": "United Kingdom", "England": "United Kingdom", "Deutschland": "Germany",
		"Holland": "Netherlands", "South Korea": "Republic of Korea", "UAE": "United Arab Emirates", "CA": "Canada",
		"de": "Germany", "Russia": "Russian Federation", "Atlantis": "Atlantis"} {
		assert.Equal(t, want, n.Country(give), give)
	}
}

// TestLocationRefDataLoad measures loading the locations' reference data
// into the gazetteer: time, and heap kept after a garbage collection.
func TestLocationRefDataLoad(t *testing.T) {
	dir := refdatatest.Need(t, refdatatest.Cities)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	g, err := places.Load(vocabDir())
	require.NoError(t, err)
	require.NoError(t, g.LoadGeoNames(dir+"/locations"))
	took := time.Since(start)
	runtime.GC()
	runtime.ReadMemStats(&after)
	heap := float64(after.HeapAlloc-before.HeapAlloc) / (1 << 20)
	t.Logf("gazetteer with GeoNames: loaded in %s, %.1f MiB of heap kept", took.Round(time.Millisecond), heap)
	// The time is logged, not asserted (a loaded machine varies it
	// several-fold); BenchmarkNewWithRefData measures it.
	assert.Less(t, heap, 50.0, "MiB")
	runtime.KeepAlive(g)
}

// newLocNormalizer returns a Normalizer of the project's vocabularies.
func newLocNormalizer(t testing.TB) *Normalizer {
	t.Helper()
	n, err := New()
	require.NoError(t, err)
	return n
}

func BenchmarkParseLocation(b *testing.B) {
	texts := []string{"Austin, TX", "San Francisco, CA; New York, NY", "Remote - US", "München, Deutschland",
		"Bengaluru, KA, IN", "Hybrid (Seattle, WA)", "Toronto ON Canada", "Greater Boston Area"}
	ns := map[string]*Normalizer{"curated": newLocNormalizer(b)}
	if dir := refdatatest.Find(refdatatest.Cities); dir != "" {
		n, err := New(WithRefData(dir))
		if err != nil {
			b.Fatal(err)
		}
		ns["refdata"] = n
	}
	for name, n := range ns {
		b.Run(name, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				n.ParseLocation(texts[i%len(texts)])
			}
		})
	}
}
