import numpy as np

from attn import positional_encoding

d_model, n = 64, 200
pe = positional_encoding(n, d_model)  # (n, d_model)
similarity = pe[0] @ pe.T  # (n,): PE[0] . PE[k] for k = 0..n-1, the same for any starting pos

first_rise = int(np.argmax(similarity[1:] > similarity[:-1])) + 1  # smallest k with sim(k) > sim(k - 1)
fastest_wavelength = 2 * np.pi  # the first pair turns one radian per position
cos_fastest = np.cos(first_rise)  # where the fastest pair is at that offset
checked_up_to = 100
rises = int((similarity[1 : checked_up_to + 1] > similarity[:checked_up_to]).sum())

print(f"PE[0] . PE[k] for k = 0..8: {similarity[:9].round(2)}")
print(f"first k at which it rises: {first_rise} (the fastest pair's wavelength: {fastest_wavelength:.2f})")
print(f"cos of the fastest pair's angle there: {cos_fastest:.3f}")
print(f"rises between k = 0 and {checked_up_to}: {rises}")
