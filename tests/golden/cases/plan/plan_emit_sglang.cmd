args: plan --model 70b --ttft p99:2s --tpot p90:50ms --rate 5 --system aws-p5 --emit sglang
exit: 0
