args: calibrate ../data/nccl-tests/a3mega-h100-16gpu-all_reduce.log --gpus-per-node 4 --scale-up nvlink4 --scale-out gcp-tcpxo
exit: 2
