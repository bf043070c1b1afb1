"""`dormouse ARGS...` for the subprocess tests: the console script's `main`, plus (only when the test asks
for one with `DORMOUSE_TEST_PAUSE=step:N` or `save:N`) a pause where a test kills the process:
after step N's log row, evaluation and checkpoint, or in the middle of writing the checkpoint of step N.
The pause is patched in here, so the library itself has no test hook."""
import functools, os, sys, time


def pause_at(spec):
    import dormouse.run_loop as train
    where, at = spec.split(":")
    def pause(w, step):
        if w == where and step == int(at):
            print(f"PAUSED {w} {step}", flush=True)
            time.sleep(3600)
    after_step = train._Run.after_step
    def after_step_then_pause(self, done):
        after_step(self, done)
        pause("step", done)
    train._Run.after_step = after_step_then_pause
    train.save_checkpoint = functools.partial(train.save_checkpoint, pause=pause)   # `save_checkpoint`'s own test point


if __name__ == "__main__":
    if os.environ.get("DORMOUSE_TEST_PAUSE"): pause_at(os.environ["DORMOUSE_TEST_PAUSE"])
    from dormouse.cli import main
    sys.exit(main())
