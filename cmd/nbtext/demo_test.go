package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// demoLog is the output of scripts/demo.sh with the given step 3 lines
// and the README's test accuracies in step 4.
func demoLog(step3 string) string {
	return "== 3. train every model\n" + step3 +
		"\n== 4. evaluate on the test split (7,532 documents)\n" +
		"  model         accuracy  macro_f1  log_loss\n" +
		"  bernoulli       0.7885    0.7800    0.9000\n" +
		"  multinomial     0.8496    0.8400    0.5000\n" +
		"  complement      0.8646    0.8500    0.6000\n" +
		"  logreg          0.8636    0.8600    0.5000\n" +
		"\n== 6. learning curves\n" +
		"done in 60s. Files in demo-out/:\n"
}

// TestCheckDemo runs scripts/check-demo.sh, which CI runs on the output of
// make demo: it passes the demo's output when every number is there and
// the test accuracies are the README's, and fails it when step 3 lost its
// numbers (as when the demo read the summary of train --quiet, which is
// empty) or an accuracy differs from the README's.
func TestCheckDemo(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	good := "  bernoulli    train accuracy 0.9262  (1.02s)\n" +
		"  multinomial  train accuracy 0.9679  (0.61s)\n" +
		"  complement   train accuracy 0.9791  (0.70s)\n" +
		"  logreg       train accuracy 0.9984  (4.10s)\n"
	run := func(log string) (string, error) {
		p := filepath.Join(dir, "demo.log")
		if err := os.WriteFile(p, []byte(log), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command("bash", filepath.Join("..", "..", "scripts", "check-demo.sh"), p, filepath.Join("..", "..", "README.md")).CombinedOutput()
		return string(out), err
	}
	if out, err := run(demoLog(good)); err != nil {
		t.Fatalf("a good demo fails: %v\n%s", err, out)
	}
	// The demo's output before: train --quiet printed nothing to parse.
	empty := strings.NewReplacer("0.9262  (1.02s)", "  (s)", "0.9679  (0.61s)", "  (s)").Replace(good)
	if out, err := run(demoLog(empty)); err == nil || !strings.Contains(out, "step 3: no train accuracy and seconds for bernoulli") {
		t.Errorf("numbers missing, passed: %v\n%s", err, out)
	}
	drift := strings.Replace(demoLog(good), "0.8496", "0.8500", 1)
	if out, err := run(drift); err == nil || !strings.Contains(out, "multinomial test accuracy 0.8500, the README says 0.8496") {
		t.Errorf("a figure off the README, passed: %v\n%s", err, out)
	}
}
