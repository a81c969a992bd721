package eval

import "sync"

// runJobs runs job(i, sc) for i in order (the order only balances load:
// each job must store its result by its own index) on up to workers
// goroutines, each with its own scratch over V terms. After each job it
// calls progress(done, len(order)) from one goroutine at a time. On failure
// it stops handing out jobs and returns the error of the failed job that
// comes first in order, so the error does not depend on timing more than
// necessary.
func runJobs(order []int, workers, V int, progress func(done, total int), job func(i int, sc *scratch) error) error {
	var (
		mu     sync.Mutex
		next   int
		done   int
		errPos = -1
		errVal error
		wg     sync.WaitGroup
	)
	for range max(1, min(workers, len(order))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := newScratch(V)
			for {
				mu.Lock()
				if next >= len(order) || errVal != nil {
					mu.Unlock()
					return
				}
				pos := next
				next++
				mu.Unlock()

				err := job(order[pos], sc)

				mu.Lock()
				if err != nil {
					if errVal == nil || pos < errPos {
						errPos, errVal = pos, err
					}
					mu.Unlock()
					return
				}
				done++
				if progress != nil {
					progress(done, len(order))
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return errVal
}
