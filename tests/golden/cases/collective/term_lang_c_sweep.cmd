env: --unset=LC_ALL LANG=C
args: collective all-reduce --size 1KiB:1GiB --gpus 8 --wire nvlink4
exit: 0
