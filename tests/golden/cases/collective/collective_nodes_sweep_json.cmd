args: collective all-reduce --size 1MiB:8GiB:x8 --gpus 16 --gpus-per-node 8 --scale-up nvlink4 --scale-out ib-ndr --nics-per-node 8 --json
exit: 0
