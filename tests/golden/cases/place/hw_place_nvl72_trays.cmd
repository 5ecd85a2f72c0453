args: place --model 405b --system gb200-nvl72 --gpus 72 --gpus-per-node 4 --scale-out nvlink5
exit: 0
