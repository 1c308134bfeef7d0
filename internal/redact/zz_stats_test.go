package redact
import ("testing";"fmt";"sort")
func TestStats(t *testing.T){
 r, _ := New(Config{})
 fmt.Println("states", len(r.ac.trans)/int(r.ac.stride), "stride", r.ac.stride, "pats", len(r.pats))
 data := MixedCorpus(16<<20, 1)
 hits := r.ac.scan(data, nil)
 cnt := map[string]int{}
 for _, h := range hits { cnt[r.pats[h.pat]]++ }
 type kv struct{k string; v int}
 var l []kv
 for k, v := range cnt { l = append(l, kv{k,v}) }
 sort.Slice(l, func(i,j int)bool{return l[i].v>l[j].v})
 fmt.Println(len(hits), l)
}
func TestBigramRate(t *testing.T){
 r, _ := New(Config{})
 a := r.ac
 big := make([]bool, a.stride*a.stride)
 for _, p := range r.pats { big[uint32(a.class[p[0]])*a.stride+uint32(a.class[p[1]])] = true }
 data := MixedCorpus(16<<20, 1)
 n := 0; c0 := 0
 for i := 0; i+1 < len(data); i++ { if a.class[data[i]] != 0 { c0++ }; if big[uint32(a.class[data[i]])*a.stride+uint32(a.class[data[i+1]])] { n++ } }
 fmt.Printf("bigram candidates %.2f%%, start-class %.2f%%\n", 100*float64(n)/float64(len(data)), 100*float64(c0)/float64(len(data)))
}
