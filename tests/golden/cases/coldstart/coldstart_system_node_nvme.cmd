args: coldstart --model 405b --system dgx-h100 --gpus 8 --from node-nvme --loader fastsafetensors --budget 60
exit: 3
