// main.go: a CPU- and heap-busy program that writes Go runtime/pprof
// profiles (cpu.pb.gz, heap.pb.gz) for aflame-render's pprof tests.
package main

import (
	"os"
	"runtime"
	"runtime/pprof"
	"sort"
	"strings"
)

var sink []string

//go:noinline
func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}

func words(n int) []string {
	w := make([]string, 0, n)
	for i := 0; i < n; i++ {
		w = append(w, strings.Repeat(string(rune('a'+i%26)), 1+i%7))
	}
	return w
}

func sortWords() {
	for i := 0; i < 200; i++ {
		w := words(20000)
		sort.Strings(w)
		sink = w
	}
}

func main() {
	f, _ := os.Create("cpu.pb.gz")
	pprof.StartCPUProfile(f)
	done := make(chan bool)
	go func() { fib(36); done <- true }()
	sortWords()
	<-done
	pprof.StopCPUProfile()
	f.Close()
	runtime.GC()
	h, _ := os.Create("heap.pb.gz")
	pprof.Lookup("heap").WriteTo(h, 0)
	h.Close()
}
