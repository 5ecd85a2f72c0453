args: plan --model 70b --ttft 2s --tpot 50ms --rate 5 --system aws-p5 --explain
exit: 0
