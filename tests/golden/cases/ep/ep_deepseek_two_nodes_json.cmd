args: ep --model deepseek-v3 --gpus 16 --gpus-per-node 8 --scale-up nvlink4 --scale-out ib-ndr --nics-per-node 8 --tokens-per-gpu 4096 --json
exit: 0
