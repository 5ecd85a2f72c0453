args: collective all-reduce --size 8B:2GiB --gpus 8 --wire nvlink4 --measured ../data/nccl-tests/mscclpp-nvls-cut-mid-row.log
exit: 2
