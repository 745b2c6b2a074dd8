// The games `speedtest` replays: four games VBlitz played against itself at 10+0.1 (the network
// against the classic evaluation; rounds 3, 9, 13 and 16 of the match in docs/network.md, with
// the engines' comments removed), 419 positions from the opening to the endgame. Every run
// searches the same positions, so results compare across machines; changing this text changes
// the test.
#pragma once

namespace vblitz::app {

inline constexpr const char* kSpeedtestGames = R"PGN(
[White "VBlitz network"]
[Black "VBlitz classic"]
[Round "2"]
[Result "1-0"]
[FEN "rnbq1rk1/1pp3bp/p2p1ppn/4p3/2PPP3/2NB1N2/PP3PPP/R1BQR1K1 w - - 0 9"]

9. dxe5 dxe5 10. h3 Nc6 11. Nd5 Nf7 12. Be3 Ng5 13. Nxg5 fxg5 14. c5 h6 15. Bc4 Kh8 16. Qd2 Be6
17. Rac1 Rc8 18. Qc3 Nd4 19. Qb4 Rb8 20. Qa5 Rf7 21. Bxd4 exd4 22. c6 b5 23. Bb3 Ra8 24. a4
bxa4 25. Qxa4 Qf8 26. Rc2 Be5 27. Rd1 a5 28. Bc4 Qe8 29. Bb3 Qg8 30. Ba2 Rb8 31. Bc4 Qe8 32.
Qxa5 Rg7 33. Qc5 Rd8 34. Re1 g4 35. hxg4 Bxg4 36. f4 Bd6 37. Qb5 Qf8 38. g3 Rb8 39. Qa5 g5 40.
Rh2 h5 41. Rf1 Ra8 42. Qe1 gxf4 43. e5 Bc5 44. Nxf4 Qe7 45. Nxh5 Rh7 46. Nf6 d3+ 47. Kg2 Rxh2+
48. Kxh2 Bd4 49. Nxg4 Bb6 50. Rf7 Qe8 51. Qe4 Qxf7 52. Bxf7 Bg1+ 53. Kg2 Rg8 54. Bxg8 Kxg8 55.
Qg6+ Kf8 56. Nf6 d2 57. Qg8+ Ke7 58. Nd5# 1-0

[White "VBlitz network"]
[Black "VBlitz classic"]
[Round "5"]
[Result "1-0"]
[FEN "r2qkbnr/pp1b2pp/2ppp3/1B6/4P3/5Q2/PPP2PPP/RNB2RK1 w kq - 0 9"]

9. Be2 Nf6 10. Qg3 Nxe4 11. Bh5+ Ke7 12. Bg5+ Nf6 13. Nd2 Be8 14. Bg4 Bf7 15. Rae1 Qc7 16. Ne4
h6 17. Bxf6+ gxf6 18. Bxe6 Bxe6 19. Qg6 Kd8 20. Qxf6+ Qe7 21. Qxh8 Kc7 22. f4 Qf7 23. b3 Bf5
24. Ng3 Bxc2 25. f5 Bd3 26. Rf3 Ba6 27. Re6 Rd8 28. Qd4 Kb8 29. Rfe3 d5 30. f6 Ka8 31. Nf5 Qg6
32. Ne7 Qc2 33. f7 Rb8 34. h3 Bb5 35. a4 Ba6 36. a5 Bb5 37. Qf6 Bd3 38. Kh2 Be4 39. Rg3 Qc5 40.
a6 Qb5 41. Rg8 Qb6 42. Nxc6 Bf5 43. Re8 Qc7+ 44. Kh1 Bc8 45. Rexf8 bxa6 46. Rxc8 Rxc8 47. Rxc8+
Kb7 48. Na5+ Kxc8 49. f8=Q+ Kd7 50. Q6e7# 1-0

[White "VBlitz network"]
[Black "VBlitz classic"]
[Round "7"]
[Result "1-0"]
[FEN "r2qkbnr/1b1p1ppp/p1n1p3/8/1pPNP3/P2B4/1P3PPP/RNBQ1RK1 w kq - 1 9"]

9. Nxc6 Bxc6 10. axb4 Bxb4 11. Be3 d6 12. Qg4 Qf6 13. Qe2 Ne7 14. Na3 Bc5 15. Bxc5 dxc5 16. Qe3
Qxb2 17. Qxc5 Rd8 18. Rab1 Qd4 19. Qxd4 Rxd4 20. Rb8+ Rd8 21. Rb3 a5 22. Nb5 a4 23. Rc3 Ng6 24.
Ra1 Nf4 25. Bf1 Bxe4 26. g3 Ng6 27. c5 O-O 28. c6 Ne7 29. c7 Rd7 30. Rxa4 Bb7 31. Ra7 Bc8 32.
Ra8 g5 33. Na7 Bb7 34. Rb8 Be4 35. f4 gxf4 36. gxf4 Kg7 37. Rg3+ Bg6 38. Rxf8 Kxf8 39. Rc3 Be4
40. c8=Q+ Nxc8 41. Nxc8 h5 42. Kf2 Bf5 43. Be2 h4 44. Nb6 Rb7 45. Nc4 Ke7 46. Ne5 Kf6 47. Kf3
Kg7 48. Bd3 Bxd3 49. Nxd3 f5 50. Kg2 Kg6 51. Rc6 Rg7 52. Kh3 Kh5 53. Rxe6 Rd7 54. Re3 Rd6 55.
Ne1 Kg6 56. Nf3 Kf6 57. Rb3 Re6 58. Kxh4 Rd6 59. Ne5 Rd2 60. Rb6+ Ke7 61. h3 Rg2 62. Kh5 Rh2
63. h4 Rg2 64. Rg6 Ra2 65. Kg5 Rg2+ 66. Kxf5 Rb2 67. h5 Rb3 68. h6 Rh3 69. Re6+ Kd8 70. Kg6
Rg3+ 71. Kf7 Rh3 72. Kg7 Rg3+ 73. Rg6 Rh3 74. h7 Ke7 75. f5 Rg3 76. Rxg3 Kd6 77. Nf7+ Kc6 78.
h8=Q Kc5 79. Qb8 Kc4 80. Qb3+ Kd4 81. Qb5 Ke4 82. Qe5# 1-0

[White "VBlitz classic"]
[Black "VBlitz network"]
[Round "8"]
[Result "0-1"]
[FEN "r1bqkb1r/1p3pp1/p1n1pn2/2pp4/4PPPp/2NP3P/PPP3B1/R1BQK1NR w KQkq - 0 9"]

9. Nf3 Qb6 10. exd5 Nxd5 11. Nxd5 exd5 12. O-O Be7 13. c3 d4 14. Re1 O-O 15. cxd4 cxd4 16. g5
Bb4 17. Re2 Bd7 18. Nxh4 Rae8 19. Be4 Ne7 20. a3 Bd6 21. b4 Bc6 22. Rf2 Bb8 23. Raa2 Ba7 24.
Bxc6 Qxc6 25. Rac2 Qb5 26. Ng2 Qf5 27. Qf3 Nd5 28. Nh4 Qd7 29. Bd2 Nc3 30. Rc1 Re3 31. Bxe3
dxe3 32. Rb2 Qxd3 33. Kh2 Bd4 34. Rbc2 Re8 35. Ng2 g6 36. Ne1 Qc4 37. Qxb7 Qf1 38. Ng2 e2 39.
Rxc3 e1=Q 40. Rxe1 Rxe1 41. h4 Qf2 42. Rc8+ Kg7 43. Kh3 Rh1+ 44. Kg4 Rh2 45. Rc2 Qxc2 46. Kg3
Bg1 47. Qf3 Qf5 48. Qc3+ Kh7 49. Kf3 Qd5+ 50. Ke2 Qxg2+ 51. Kd1 Qe2+ 52. Kc1 Qf1+ 53. Qe1 Qxe1#
0-1

)PGN";

}  // namespace vblitz::app
