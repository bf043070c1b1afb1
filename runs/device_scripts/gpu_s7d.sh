# session 7, call 4 (the command line as sent to the device tool, kept here verbatim): ns_method's other nine runs.
source tools/gpu_setup.sh; export DORMOUSE_GIT_COMMIT=fe37490 DORMOUSE_GIT_DIRTY=0 PYTHONUNBUFFERED=1; bash tools/gpu_ab.sh ns_method 340 quintic3/0 quintic3/1 quintic3/2 polar_express3/0 polar_express3/1 polar_express3/2 polar_express4/0 polar_express4/1 polar_express4/2
