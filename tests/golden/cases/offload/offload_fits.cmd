args: offload --model 8b --gpu h100 --batch 8 --context 8192
exit: 0
