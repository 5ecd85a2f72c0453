args: calibrate ../data/nccl-tests/a3mega-h100-16gpu-all_reduce.log --gpus-per-node 8 --scale-up nvlink4 --scale-out gcp-tcpxo --nics-per-node 8
exit: 0
