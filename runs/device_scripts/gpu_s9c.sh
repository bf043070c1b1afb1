# session 9, call 3, as sent (the command line of the call, committed afterwards): card16's first run, the control
# fp32_state/0 (dormouse-1b, micro-batch 32 x accum 2, 2,000 steps, no checkpoints), GUESS 400 s (an estimate; it took 444 s).
export CALL_T0=$(date +%s); source tools/gpu_setup.sh; export PYTHONUNBUFFERED=1 DORMOUSE_GIT_COMMIT=402510428fa874657255eff5c2dbb6d10c6f9884 DORMOUSE_GIT_DIRTY=0; grep -nE "arms|^  [a-z_0-9]+:|steps|seeds" experiments/card16.yaml | head -20; END=590 GUESS=400 bash tools/gpu_ab_fit.sh card16 fp32_state/0 2>&1 | tail -20; ls -laR $OUT
