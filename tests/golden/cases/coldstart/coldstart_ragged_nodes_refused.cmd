args: coldstart --model 70b --gpus 8 --gpus-per-node 3
exit: 2
