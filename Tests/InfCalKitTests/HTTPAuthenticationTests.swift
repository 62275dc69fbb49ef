import Foundation
import InfCalRemote
import Testing

/// The hashes against their standards' test vectors, Digest against RFC 7616's and RFC 2617's
/// worked examples, and the `WWW-Authenticate` reader.
@Suite struct HashTests {
    /// RFC 1321 appendix A.5, the test suite of the reference implementation.
    @Test(arguments: [
        ("", "d41d8cd98f00b204e9800998ecf8427e"),
        ("a", "0cc175b9c0f1b6a831c399e269772661"),
        ("abc", "900150983cd24fb0d6963f7d28e17f72"),
        ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
        ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
        (String(repeating: "1234567890", count: 8), "57edf4a22be3c955ac49da2e2107b67a"),
    ])
    func md5MatchesRFC1321(text: String, expected: String) {
        #expect(Hashes.hex(Hashes.md5(text.utf8)) == expected)
    }

    /// FIPS 180-2 appendix B (one block, two blocks, a million `a`) and the empty message.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        (String(repeating: "a", count: 1_000_000), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
    ])
    func sha256MatchesFIPS180(text: String, expected: String) {
        #expect(Hashes.hex(Hashes.sha256(text.utf8)) == expected)
    }

    /// Lengths around the padding's edges (55, 56, 63, 64 bytes and more), against the values
    /// Python's hashlib gives (computed once; `printf 'a%.0s' {1..55} | md5sum` agrees).
    @Test func thePaddingEdgesHashAsHashlibDoes() {
        let cases: [(Int, String, String)] = [
            (55, "ef1772b6dff9a122358552954ad0df65", "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
            (56, "3b0c8ac703f828b04c6c197006d17218", "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
            (63, "b06521f39153d618550606be297466d5", "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
            (64, "014842d480b571495a4a0363793f7367", "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
            (119, "8a7bd0732ed6a28ce75f6dabc90e1613", "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"),
        ]
        for (count, md5, sha256) in cases {
            let text = String(repeating: "a", count: count)
            #expect(Hashes.hex(Hashes.md5(text.utf8)) == md5, "\(count)")
            #expect(Hashes.hex(Hashes.sha256(text.utf8)) == sha256, "\(count)")
        }
    }
}

@Suite struct DigestTests {
    /// RFC 7616 section 3.9.1: Mufasa, "Circle of Life", GET /dir/index.html, with its nonce,
    /// cnonce and opaque; the RFC gives the response for SHA-256 and for MD5.
    @Test(arguments: [("SHA-256", "753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1"),
                      ("MD5", "8ca523f5e9506fed4657c9700eebdbec")])
    func rfc7616sWorkedExample(algorithm: String, response: String) throws {
        let header = "Digest realm=\"http-auth@example.org\", qop=\"auth, auth-int\", algorithm=\(algorithm), "
            + "nonce=\"7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v\", opaque=\"FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS\""
        let challenge = try #require(DigestChallenge.best(of: AuthChallenge.parse(header)))
        let value = challenge.authorization(user: "Mufasa", password: "Circle of Life", method: "GET", uri: "/dir/index.html",
                                            count: 1, cnonce: "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ")
        #expect(value == "Digest username=\"Mufasa\", realm=\"http-auth@example.org\", uri=\"/dir/index.html\", algorithm=\(algorithm), "
                + "nonce=\"7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v\", nc=00000001, "
                + "cnonce=\"f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ\", qop=auth, response=\"\(response)\", "
                + "opaque=\"FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS\"")
    }

    /// RFC 2617 section 3.5 (the MD5 example RFC 7616 replaced; its password is "Circle Of Life").
    @Test func rfc2617sExample() throws {
        let challenge = try #require(DigestChallenge(AuthChallenge(scheme: "Digest", parameters: [
            "realm": "testrealm@host.com", "qop": "auth,auth-int", "nonce": "dcd98b7102dd2f0e8b11d0f600bfb0c093",
            "opaque": "5ccc069c403ebaf9f0171e9517f40e41"])))
        let value = challenge.authorization(user: "Mufasa", password: "Circle Of Life", method: "GET", uri: "/dir/index.html",
                                            count: 1, cnonce: "0a4f113b")
        #expect(value.contains("response=\"6629fae49393a05397450978507c4ef1\""), "\(value)")
        #expect(challenge.algorithm == .md5)
    }

    /// The nonce count is eight hex digits and the session variants hash the nonces into HA1;
    /// the expected values are Python hashlib's, computed by the formula of RFC 7616 section 3.4.2.
    @Test func theCountIsHexAndSessionVariantsMixTheNonces() throws {
        let challenge = try #require(DigestChallenge(AuthChallenge(scheme: "digest", parameters: [
            "realm": "r", "nonce": "n", "qop": "auth", "algorithm": "SHA-256-sess"])))
        let value = challenge.authorization(user: "u", password: "p", method: "PROPFIND", uri: "/a%20b/", count: 26, cnonce: "c")
        #expect(value.contains("nc=0000001a"), "\(value)")
        // H(H(u:r:p):n:c), H(PROPFIND:/a%20b/), then H(HA1:n:0000001a:c:auth:HA2), by hashlib.
        #expect(value.contains("response=\"fab40746e0c62ea26e8b631dd1aeafc4fcd1c0354e385d678f90a7662dbbc23b\""), "\(value)")
        let legacy = try #require(DigestChallenge(AuthChallenge(scheme: "digest", parameters: ["realm": "r", "nonce": "n"])))
        let old = legacy.authorization(user: "u", password: "p", method: "GET", uri: "/", count: 1, cnonce: "c")
        // No qop: RFC 2069's H(HA1:nonce:HA2), without nc and cnonce.
        #expect(!old.contains("nc=") && old.contains("response=\"" + Hashes.hex(Hashes.md5(
            (Hashes.hex(Hashes.md5("u:r:p".utf8)) + ":n:" + Hashes.hex(Hashes.md5("GET:/".utf8))).utf8)) + "\""))
    }

    @Test func theStrongestOfferedAlgorithmIsTakenAndUnknownOnesAreNot() throws {
        let both = AuthChallenge.parse("Digest realm=\"x\", nonce=\"1\", algorithm=MD5, qop=\"auth\", "
                                       + "Digest realm=\"x\", nonce=\"2\", algorithm=SHA-256, qop=\"auth\", Basic realm=\"x\"")
        #expect(both.map(\.scheme) == ["digest", "digest", "basic"])
        #expect(DigestChallenge.best(of: both)?.algorithm == .sha256)
        #expect(DigestChallenge.best(of: both)?.nonce == "2")
        #expect(DigestChallenge.best(of: AuthChallenge.parse("Digest realm=\"x\", nonce=\"1\", algorithm=SHA-512-256")) == nil)
        #expect(DigestChallenge.best(of: AuthChallenge.parse("Digest realm=\"x\", nonce=\"1\", qop=\"auth-int\"")) == nil)
        let stale = try #require(DigestChallenge.best(of: AuthChallenge.parse("Digest realm=\"x\", nonce=\"3\", stale=TRUE")))
        #expect(stale.stale)
    }
}

@Suite struct ChallengeParsingTests {
    @Test func challengesParametersQuotesAndToken68() {
        let parsed = AuthChallenge.parse("Newauth realm=\"apps\", type=1, title=\"Login to \\\"apps\\\", please\", Basic realm=\"simple\"")
        #expect(parsed == [AuthChallenge(scheme: "newauth", parameters: ["realm": "apps", "type": "1", "title": "Login to \"apps\", please"]),
                           AuthChallenge(scheme: "basic", parameters: ["realm": "simple"])])
        #expect(AuthChallenge.parse("Bearer error=\"invalid_token\"") == [AuthChallenge(scheme: "bearer", parameters: ["error": "invalid_token"])])
        #expect(AuthChallenge.parse("Negotiate abc+/d==, Bearer") == [AuthChallenge(scheme: "negotiate"), AuthChallenge(scheme: "bearer")])
        #expect(AuthChallenge.parse("").isEmpty)
        #expect(AuthChallenge.parse(" , ,").isEmpty)
        // A parameter given twice keeps the first (RFC 7616 section 3.3 makes such a challenge invalid).
        #expect(AuthChallenge.parse("Digest nonce=\"a\", nonce=\"b\"").first?.parameters["nonce"] == "a")
        // An unclosed quote ends the field: nothing past it is read.
        #expect(AuthChallenge.parse("Basic realm=\"a, Digest").first?.parameters["realm"] == "a, Digest")
    }
}
