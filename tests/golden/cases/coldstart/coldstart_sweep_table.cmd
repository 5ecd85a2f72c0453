args: coldstart --model 405b --system dgx-h100 --from node-nvme --loader fastsafetensors --budget 60 --sweep gpus=8:32:8
exit: 0
