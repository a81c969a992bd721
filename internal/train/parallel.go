package train

import (
	"sync"
	"sync/atomic"
)

// parallel runs fn(task) for every task in [0, n) on at most workers
// goroutines, which claim tasks from a shared counter. Which goroutine runs
// a task depends on scheduling, so fn must write only outputs owned by its
// task; callers then combine per-task results in task order, which makes the
// outcome independent of the worker count.
func parallel(workers, n int, fn func(task int)) {
	if workers > n {
		workers = n
	}
	if workers <= 1 {
		for i := 0; i < n; i++ {
			fn(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	wg.Add(workers)
	for range workers {
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(i)
			}
		}()
	}
	wg.Wait()
}
