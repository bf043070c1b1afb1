# the fused BankMuon step (torch.compile on CUDA), call 1 of 2: eager against fused on dormouse-1b's banks
# (fused_check.py), the optimizer chapter's GPU cells, and kill-and-resume with the card's levers on CUDA
source tools/gpu_setup.sh; export PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R; T0=$(date +%s)
pack() { (cd $OUT && tar czf r.tgz r); }
t() { n=$1; shift; timeout $TO "$@" > $R/$n.txt 2>&1; echo "$n rc=$? $(( $(date +%s)-T0 ))s: $(tail -n 1 $R/$n.txt)"; pack; }
python3 -c "import torch; print(torch.__version__, torch.cuda.get_device_name())"
TO=120 t fused_check python3 runs/device_scripts/fused_check.py
cat $R/fused_check.txt
TO=180 t nbdev_test_gpu_11_optim nbdev-test --flags gpu --do-print nbs/1_model/11_optim.ipynb
TO=60 t nbdev_test_gpu_06_bits nbdev-test --flags gpu --do-print nbs/0_foundations/06_bits.ipynb
TO=200 t resume_cuda env DORMOUSE_TEST_DEVICE=cuda python3 -m pytest -q tests/test_train.py::test_sigkill_and_resume_with_the_card_levers_is_bit_exact tests/test_engram_resume.py
cd $OUT && tar czf r.tgz r && rm -rf r
