//go:build unix

package fsutil

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// withUmask runs f with the process umask set to mask. Tests using it do
// not run in parallel.
func withUmask(mask int, f func()) {
	old := syscall.Umask(mask)
	defer syscall.Umask(old)
	f()
}

func TestWriteFileModes(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		umask int
		old   os.FileMode // 0: no file before
		want  os.FileMode
	}{
		{0o022, 0, 0o644},
		{0o077, 0, 0o600},
		{0o002, 0, 0o664},
		{0o022, 0o600, 0o600}, // a replaced file keeps its mode
		{0o077, 0o664, 0o664}, // even where the umask would clear bits
		{0o022, 0o755, 0o755},
	} {
		p := filepath.Join(dir, "out")
		os.Remove(p)
		if c.old != 0 {
			if err := os.WriteFile(p, []byte("old"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(p, c.old); err != nil {
				t.Fatal(err)
			}
		}
		var err error
		withUmask(c.umask, func() { err = WriteFile(p, writeString("new")) })
		if err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != c.want {
			t.Errorf("umask %03o, old mode %v: mode %v, want %v", c.umask, c.old, got, c.want)
		}
	}
}

func TestWriteFileRefusesFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFO on this system:", err)
	}
	done := make(chan error, 1)
	go func() { done <- WriteFile(fifo, writeString("x")) }()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "named pipe") {
			t.Fatalf("err = %v, want ErrNotRegular naming a named pipe", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("WriteFile blocked on a FIFO")
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the FIFO was replaced: %v %v", fi.Mode(), err)
	}
}

// deadPID returns the id of a process that has ended.
func deadPID(t *testing.T) int {
	t.Helper()
	c := exec.Command("true")
	if err := c.Run(); err != nil {
		t.Skip("cannot run true:", err)
	}
	return c.Process.Pid
}

func TestWriteFileRemovesStaleTemps(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "m.nbm")
	mk := func(name string, age time.Duration) string {
		q := filepath.Join(dir, name)
		if err := os.WriteFile(q, []byte("partial"), 0o600); err != nil {
			t.Fatal(err)
		}
		when := time.Now().Add(-age)
		if err := os.Chtimes(q, when, when); err != nil {
			t.Fatal(err)
		}
		return q
	}
	dead := mk(".m.nbm.tmp-"+strconv.Itoa(deadPID(t))+"-123", 0)
	legacyOld := mk(".m.nbm.tmp-2718281828", time.Hour)
	live := mk(".m.nbm.tmp-1-42", time.Hour)                          // pid 1 runs
	legacyNew := mk(".m.nbm.tmp-3141592653", 0)                       // may be a writer of an older build
	otherOutput := mk(".x.nbm.tmp-"+strconv.Itoa(deadPID(t))+"-7", 0) // another output's
	if err := WriteFile(p, writeString("model")); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{dead, legacyOld} {
		if _, err := os.Stat(q); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("stale %s not removed", filepath.Base(q))
		}
	}
	for _, q := range []string{live, legacyNew, otherOutput} {
		if _, err := os.Stat(q); err != nil {
			t.Errorf("%s removed: %v", filepath.Base(q), err)
		}
	}
}

// TestCleanupOnSignal kills a helper process (this test binary, see
// TestSignalHelper) while it writes and checks that the signal removed the
// temporary file and killed the process with that signal.
func TestCleanupOnSignal(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		dir := t.TempDir()
		cmd := exec.Command(os.Args[0], "-test.run=^TestSignalHelper$")
		cmd.Env = append(os.Environ(), "FSUTIL_SIGNAL_HELPER="+dir, "TMPDIR="+dir)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		line, err := bufio.NewReader(out).ReadString('\n')
		if err != nil || !strings.HasPrefix(line, "writing") {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("helper said %q, %v", line, err)
		}
		// The write's temporary file, a spilled run (CreateTemp) and a
		// scratch folder (TempDir): a signal removes all three (issue 28,
		// item 5).
		if got := entries(t, dir); len(got) != 3 || !strings.HasPrefix(got[0], ".out.tmp-") || !strings.HasPrefix(got[1], "nbt-") || !strings.HasPrefix(got[2], "run-") {
			t.Fatalf("while writing, folder holds %v, want a temporary file, a folder and a run", got)
		}
		cmd.Process.Signal(sig)
		err = cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("helper exited with %v", err)
		}
		if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != sig {
			t.Errorf("helper ended with %v, want killed by %v", err, sig)
		}
		if got := entries(t, dir); len(got) != 0 {
			t.Errorf("after %v, folder holds %v", sig, got)
		}
	}
}

// TestSignalHelper is the process TestCleanupOnSignal kills: it starts a
// write that never finishes.
func TestSignalHelper(t *testing.T) {
	dir := os.Getenv("FSUTIL_SIGNAL_HELPER")
	if dir == "" {
		t.Skip("run by TestCleanupOnSignal")
	}
	CleanupOnSignal()
	if _, err := CreateTemp(dir, "run-*.nbc"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := TempDir("nbt"); err != nil {
		t.Fatal(err)
	}
	WriteFile(filepath.Join(dir, "out"), func(w io.Writer) error {
		io.WriteString(w, "partial")
		os.Stdout.WriteString("writing\n")
		select {}
	})
}

// TestTempDirRemovesStale: TempDir removes the folders of its prefix left
// by a process that is gone (a kill -9), keeps those of running ones, and
// its remove takes the folder and what it holds (issue 28, item 5).
func TestTempDirRemovesStale(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dead := filepath.Join(tmp, "nbt-"+strconv.Itoa(deadPID(t))+"-1")
	live := filepath.Join(tmp, "nbt-"+strconv.Itoa(os.Getppid())+"-1")
	for _, d := range []string{dead, live} {
		if err := os.MkdirAll(filepath.Join(d, "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	dir, remove, err := TempDir("nbt")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dead); err == nil {
		t.Error("the folder of a dead process was kept")
	}
	if _, err := os.Stat(live); err != nil {
		t.Error("the folder of a running process was removed")
	}
	if err := os.WriteFile(filepath.Join(dir, "f"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	remove()
	if _, err := os.Stat(dir); err == nil {
		t.Error("remove left the folder")
	}
}
