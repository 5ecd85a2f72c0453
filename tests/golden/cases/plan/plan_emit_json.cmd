args: plan --model 70b --ttft 2s --tpot 50ms --rate 5 --system aws-p5,dgx-h100 --emit trtllm --json
exit: 0
