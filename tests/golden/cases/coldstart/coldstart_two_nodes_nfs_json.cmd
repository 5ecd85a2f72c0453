args: coldstart --model 70b --gpus 16 --gpus-per-node 8 --from nfs --json
exit: 0
