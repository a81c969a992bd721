package inflight

import (
	"sync"
	"testing"
	"time"
)

// TestBudgetBounds: concurrent holders never hold more than the limit,
// except one batch larger than the whole budget, which passes alone.
func TestBudgetBounds(t *testing.T) {
	b := New(100)
	var wg sync.WaitGroup
	var mu sync.Mutex
	held, worst := int64(0), int64(0)
	for i := 0; i < 40; i++ {
		wg.Add(1)
		go func(n int64) {
			defer wg.Done()
			got, ok := b.Acquire(n)
			if !ok {
				t.Error("closed")
				return
			}
			mu.Lock()
			held += got
			worst = max(worst, held)
			mu.Unlock()
			time.Sleep(time.Millisecond)
			mu.Lock()
			held -= got
			mu.Unlock()
			b.Release(got)
		}(int64(10 + i%3*20))
	}
	big, ok := b.Acquire(1000)
	if !ok || big != 100 {
		t.Fatalf("a batch over the budget took %d, %v", big, ok)
	}
	b.Release(big)
	wg.Wait()
	if worst > 100 || b.Peak() > 100 {
		t.Errorf("held %d at once (peak %d), limit 100", worst, b.Peak())
	}
	if b.Used() != 0 {
		t.Errorf("%d bytes still held", b.Used())
	}
}

// TestWaitRoom: a reader about to read a document larger than the room
// left waits until the batches before it are done; Close wakes it.
func TestWaitRoom(t *testing.T) {
	b := New(100)
	n, _ := b.Acquire(60)
	done := make(chan bool)
	go func() { done <- b.WaitRoom(500) }()
	select {
	case <-done:
		t.Fatal("WaitRoom returned while 60 of 100 bytes were held")
	case <-time.After(20 * time.Millisecond):
	}
	b.Release(n)
	if ok := <-done; !ok {
		t.Error("WaitRoom failed on an open budget")
	}
	if !b.WaitRoom(40) {
		t.Error("room on an empty budget")
	}
	b.Acquire(90)
	go func() { done <- b.WaitRoom(20) }()
	b.Close()
	if ok := <-done; ok {
		t.Error("WaitRoom succeeded on a closed budget")
	}
	if _, ok := b.Acquire(1); ok {
		t.Error("Acquire succeeded on a closed budget")
	}
}
