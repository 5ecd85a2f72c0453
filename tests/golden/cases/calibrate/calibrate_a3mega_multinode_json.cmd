args: calibrate ../data/nccl-tests/a3mega-h100-16gpu-all_reduce.log --scale-up nvlink4 --scale-out gcp-tcpxo --nics-per-node 8 --json
exit: 0
